import type { ScenarioCheck } from '../check.js';
import {
  createWith,
  deleteLinkOf,
  follow,
  producersLinking,
  readLinks,
} from '../support/spec-links.js';
import { describe, isSelected, isSuccess } from '../support/stateful-support.js';

/**
 * `use_after_free`: once the linked DELETE succeeded, no linked GET finds the resource any
 * more (404), so a deletion that only hides or never happens shows.
 */
export const useAfterFree: ScenarioCheck = {
  kind: 'scenario',
  name: 'use_after_free',
  description: 'After the linked DELETE succeeded, every linked GET answers 404',
  async run(ctx, record) {
    const producers = producersLinking(ctx, (op) => op.method === 'delete');
    if (producers.length === 0) {
      record.skip(undefined, 'no creating POST links to a DELETE operation');
      return;
    }
    for (const producer of producers) {
      if (ctx.stopped()) return;
      const resource = await createWith(ctx, producer);
      if ('reason' in resource) {
        record.skip(producer, `no resource could be created: ${resource.reason}`);
        continue;
      }
      const reads = readLinks(resource).filter((l) => isSelected(ctx, l.target));
      const del = deleteLinkOf(resource);
      if (!del || reads.length === 0) continue;
      // Read first: a cache that DELETE fails to clear only shows once it holds the resource.
      for (const link of reads) await follow(ctx, link);
      const gone = await follow(ctx, del);
      if ('reason' in gone) {
        record.skip(del.target, gone.reason);
        continue;
      }
      if (!isSuccess(gone.response.status)) {
        record.skip(
          del.target,
          `the DELETE answered ${gone.response.status}, so there is no deleted resource to look for (${describe(gone)})`,
        );
        continue;
      }
      resource.deleted = true;
      for (const link of reads) {
        // 410 Gone says the same where the spec documents it.
        const gone410 = link.target.responses['410'] !== undefined;
        if (link.target.responses['404'] === undefined && !gone410) {
          record.skip(link.target, `${link.target.operationId} documents no 404`);
          continue;
        }
        const res = await follow(ctx, link);
        if ('reason' in res) record.skip(link.target, res.reason);
        else if (res.response.status === 404 || (gone410 && res.response.status === 410))
          record.pass(
            link.target,
            `${res.response.status} after ${del.target.operationId} deleted the resource`,
            res,
          );
        else
          record.fail(
            link.target,
            {
              message: `the resource is still there after ${del.target.operationId} answered ${gone.response.status}`,
              expected: `${gone410 ? '404 or 410' : '404'} after ${describe(gone)}`,
              actual: describe(res),
            },
            res,
          );
      }
    }
  },
};
