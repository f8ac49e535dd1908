import type { ScenarioCheck } from '../check.js';
import { createWith, follow, readLinks } from '../support/spec-links.js';
import {
  describe,
  isDocumented,
  isSelected,
  isSuccess,
  linkTargets,
} from '../support/stateful-support.js';

/**
 * `ensure_resource_availability`: what a POST created can be read right away through every
 * GET its links name (no 404 from a replica that has not caught up, no lost write), and
 * every other link works when followed once with valid data.
 */
export const ensureResourceAvailability: ScenarioCheck = {
  kind: 'scenario',
  name: 'ensure_resource_availability',
  description:
    'A created resource is readable through every linked GET at once; every other link, followed with valid data, answers 2xx or a documented status other than 404 and 5xx',
  async run(ctx, record) {
    const producers = ctx.fixtures.producers();
    if (producers.length === 0) {
      record.skip(undefined, 'the spec declares no links on the answer of a creating POST');
      return;
    }
    for (const producer of producers) {
      if (ctx.stopped()) return;
      const targets = linkTargets(ctx, producer).filter((op) => isSelected(ctx, op));
      if (targets.length === 0) continue;
      if (!targets.some((op) => op.method === 'get')) {
        record.skip(
          producer,
          `the links of ${producer.operationId} name no GET operation, so nothing reads its resource back`,
        );
        continue;
      }
      const resource = await createWith(ctx, producer);
      if ('reason' in resource) {
        record.skip(producer, `no resource could be created: ${resource.reason}`);
        continue;
      }
      for (const link of readLinks(resource)) {
        if (!isSelected(ctx, link.target)) continue;
        const res = await follow(ctx, link);
        if ('reason' in res) {
          record.skip(link.target, res.reason);
        } else if (isSuccess(res.response.status)) {
          record.pass(
            link.target,
            `read the resource ${producer.operationId} had just created (link ${link.name})`,
            res,
          );
        } else {
          record.fail(
            link.target,
            {
              message: `the resource ${producer.operationId} had just created is not available through link ${link.name}`,
              expected: `a 2xx answer right after ${producer.operationId} answered ${resource.exchange.response.status}`,
              actual: describe(res),
            },
            res,
          );
        }
      }
      // Deletion last, so that it does not pull the resource from under the other links;
      // links to other producers are judged when those producers create their resources.
      const others = resource.links
        .filter((l) => l.target.method !== 'get' && isSelected(ctx, l.target))
        .filter((l) => !ctx.fixtures.producers().includes(l.target))
        .sort(
          (a, b) => Number(a.target.method === 'delete') - Number(b.target.method === 'delete'),
        );
      for (const link of others) {
        if (ctx.stopped()) return;
        const res = await follow(ctx, link);
        if ('reason' in res) {
          record.skip(link.target, res.reason);
          continue;
        }
        const status = res.response.status;
        if (isSuccess(status)) {
          if (link.target.method === 'delete') resource.deleted = true;
          record.pass(link.target, `link ${link.name} of ${producer.operationId} worked`, res);
        } else if (status !== 404 && status < 500 && isDocumented(link.target, status)) {
          record.pass(
            link.target,
            `link ${link.name} of ${producer.operationId} answered ${status}, a documented refusal`,
            res,
          );
        } else {
          record.fail(
            link.target,
            {
              message: `following link ${link.name} of a resource ${producer.operationId} had just created failed`,
              expected: '2xx, or a documented status other than 404 and 5xx',
              actual: describe(res),
            },
            res,
          );
        }
      }
    }
  },
};
