import type { SpecOperation } from '../../../spec/operations.js';
import type { OperationCall } from '../../http/build-request.js';
import type { RunContext } from '../../run-context.js';
import type { CreatedResource, Unavailable } from '../../stateful/fixtures.js';
import { credentialFor } from './probe-support.js';
import { callFor, exampleFor } from './stateful-support.js';

/** How to call a GET operation so that it reads something that exists. */
export interface ReadTarget {
  op: SpecOperation;
  call: OperationCall;
  /**
   * Where the path values came from: none needed, a created resource (its links, or its
   * collection holding it), or the spec's parameter examples (which may name nothing on
   * another implementation, so checks skip rather than fail when those do not answer 200).
   */
  source: 'none' | 'resource' | 'example';
}

interface Pool {
  resources: CreatedResource[];
  targets: Map<string, Promise<ReadTarget | Unavailable>>;
}

const pools = new WeakMap<RunContext, Pool>();

/**
 * A call for a GET operation, shared by the read-only checks of one run: list operations
 * without path parameters directly; a collection (a GET on the path a producer POSTs to) with
 * one resource created in it, so that it is not empty; other operations through the links of
 * a created resource; failing that, the spec's examples of the path parameters. Read-only
 * checks must not change what they get here.
 */
export function readTarget(ctx: RunContext, op: SpecOperation): Promise<ReadTarget | Unavailable> {
  let pool = pools.get(ctx);
  if (!pool) pools.set(ctx, (pool = { resources: [], targets: new Map() }));
  let target = pool.targets.get(op.operationId);
  if (!target) pool.targets.set(op.operationId, (target = resolve(ctx, op, pool)));
  return target;
}

/** Targets for several operations, resolved one after the other (creation is not raced). */
export async function readTargets(
  ctx: RunContext,
  ops: SpecOperation[],
): Promise<{ op: SpecOperation; target: ReadTarget | Unavailable }[]> {
  const out = [];
  for (const op of ops) {
    if (ctx.stopped()) break;
    out.push({ op, target: await readTarget(ctx, op) });
  }
  return out;
}

async function resolve(
  ctx: RunContext,
  op: SpecOperation,
  pool: Pool,
): Promise<ReadTarget | Unavailable> {
  // Without the credentials it needs, an operation answers 401/403 whatever it holds: that
  // says nothing about reading, and judging it would cry wolf (decision 0017).
  const credential = credentialFor(ctx, op);
  if (typeof credential === 'object' && 'reason' in credential) return credential;
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  if (pathParams.length === 0) return { op, call: {}, source: 'none' };

  const collection = ctx.fixtures.producers().find((p) => p.path === op.path);
  let reason: string | undefined;
  if (collection) {
    const made = await ctx.fixtures.create(collection);
    if ('reason' in made) reason = made.reason;
    else {
      pool.resources.push(made);
      return { op, call: { path: made.pathParameters }, source: 'resource' };
    }
  }
  for (const resource of pool.resources) {
    const link = resource.links.find((l) => l.target.operationId === op.operationId);
    if (link) return { op, call: callFor(op, link.parameters), source: 'resource' };
  }
  if (ctx.fixtures.producersOf(op).length > 0) {
    const made = await ctx.fixtures.paramsFor(op);
    if ('reason' in made) reason = made.reason;
    else {
      pool.resources.push(made.resource);
      return { op, call: callFor(op, made.parameters), source: 'resource' };
    }
  }
  const examples: Record<string, unknown> = {};
  for (const p of pathParams) {
    const value = exampleFor(p);
    if (value === undefined)
      return {
        reason:
          reason ??
          `no operation links to ${op.operationId} and its path parameter ${p.name} has no example`,
      };
    examples[p.name] = value;
  }
  return { op, call: { path: examples }, source: 'example' };
}
