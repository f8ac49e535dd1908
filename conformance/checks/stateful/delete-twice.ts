import type { ScenarioCheck } from '../check.js';
import { createWith, deleteLinkOf, follow, producersLinking } from '../support/spec-links.js';
import {
  describe,
  documentedSuccesses,
  isSelected,
  isSuccess,
} from '../support/stateful-support.js';

/**
 * `delete_twice`: the linked DELETE of a new resource succeeds (with a documented 2xx, 204
 * where that is what the spec says), and the same DELETE again is 404.
 */
export const deleteTwice: ScenarioCheck = {
  kind: 'scenario',
  name: 'delete_twice',
  description:
    'DELETE through the link answers a documented 2xx; the same DELETE again answers 404',
  async run(ctx, record) {
    const producers = producersLinking(ctx, (op) => op.method === 'delete' && isSelected(ctx, op));
    if (producers.length === 0) {
      record.skip(undefined, 'no creating POST links to a selected DELETE operation');
      return;
    }
    for (const producer of producers) {
      if (ctx.stopped()) return;
      const resource = await createWith(ctx, producer);
      if ('reason' in resource) {
        record.skip(producer, `no resource could be created: ${resource.reason}`);
        continue;
      }
      const link = deleteLinkOf(resource);
      if (!link) continue;
      const op = link.target;
      const first = await follow(ctx, link);
      if ('reason' in first) {
        record.skip(op, first.reason);
        continue;
      }
      const documented = documentedSuccesses(op);
      const status = first.response.status;
      if (!isSuccess(status) || (documented.length > 0 && !documented.includes(status))) {
        record.fail(
          op,
          {
            message: 'deleting a resource that was just created did not succeed as documented',
            expected: documented.length ? documented.join(' or ') : '2xx',
            actual: describe(first),
          },
          first,
        );
        continue;
      }
      resource.deleted = true;
      const gone410 = op.responses['410'] !== undefined;
      if (op.responses['404'] === undefined && !gone410) {
        record.skip(op, `${op.operationId} documents no 404 for an absent resource`);
        continue;
      }
      const second = await follow(ctx, link);
      if ('reason' in second) record.skip(op, second.reason);
      else if (second.response.status === 404 || (gone410 && second.response.status === 410))
        record.pass(op, `${status}, then ${second.response.status} for the same DELETE`, second);
      else
        record.fail(
          op,
          {
            message: 'the second DELETE of the same resource did not answer 404',
            expected: `${gone410 ? '404 or 410' : '404'} (the first DELETE answered ${status})`,
            actual: describe(second),
          },
          second,
        );
    }
  },
};
