import type { SpecOperation } from '../../spec/operations.js';
import type { Credential } from '../auth-session.js';
import type { CreatedResource, Fixtures, Unavailable } from './fixtures.js';

/** The resource made for probes, per fixtures, producer and credential (see sharedParamsFor). */
const made = new WeakMap<Fixtures, Map<string, Promise<CreatedResource | Unavailable>>>();

/**
 * Path parameter values for `op`, from one resource per producer and credential that every
 * probe of the run shares, made on first need (where `Fixtures.paramsFor` makes one per call).
 * For probes whose requests a correct target refuses or only reads (a broken body, a missing
 * token, an Accept it cannot serve): nothing they send changes the resource, so one serves
 * them all. Why: they were about 250 of a default run's 275 creations, each one more durable
 * write to make it and one to delete it in the cleanup. A probe that a broken target accepts
 * may change the shared resource; that probe fails on its own, and the resource is made anew
 * once it is gone.
 *
 * @example
 * const made = await sharedParamsFor(ctx.fixtures, putUser, 'user'); // { parameters: { id: 7 }, resource }
 */
export async function sharedParamsFor(
  fixtures: Fixtures,
  op: SpecOperation,
  credential: Credential = 'user',
): Promise<{ parameters: Record<string, unknown>; resource: CreatedResource } | Unavailable> {
  const producers = fixtures.producersOf(op);
  if (producers.length === 0) return fixtures.paramsFor(op, credential);
  let cache = made.get(fixtures);
  if (!cache) made.set(fixtures, (cache = new Map()));
  let last: Unavailable = { reason: 'no producer succeeded' };
  for (const producer of producers) {
    const key = `${producer.operationId}\u0000${credential}`;
    // Looked up and set with no await between: probes asking at once share one creation.
    let making = cache.get(key);
    if (!making) cache.set(key, (making = fixtures.create(producer, credential)));
    let resource = await making;
    if (!('reason' in resource) && resource.deleted) {
      if (cache.get(key) === making)
        cache.set(key, (making = fixtures.create(producer, credential)));
      resource = await (cache.get(key) ?? making);
    }
    if ('reason' in resource) {
      // Not kept: a refusal may pass (a 429 waited out, a 503), and the next probe tries again.
      if (cache.get(key) === making) cache.delete(key);
      last = resource;
      continue;
    }
    const link = resource.allLinks.find((l) => l.target.operationId === op.operationId);
    if (link) return { parameters: link.parameters, resource };
  }
  return last;
}
