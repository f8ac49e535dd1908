import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/operations.js';
import { exampleValue, fixtureCredential } from '../checks/support/probe-support.js';
import type { RunContext } from '../run-context.js';

/** Path parameter values for fuzzing one operation, and which name resources of the run. */
export interface FuzzParams {
  values: Record<string, unknown>;
  /** Parameters whose values name resources the run created (safe to change or delete). */
  owned: Set<string>;
}

/**
 * Path parameter values for an operation's fuzz cases, from resources created for it alone
 * (so that operations fuzzed at the same time never share a resource and a read-back sees
 * only its own writes): through the spec's links, else through another operation declaring
 * the same parameter, else the spec's example value (not owned).
 */
export async function fuzzParams(ctx: RunContext, op: SpecOperation): Promise<FuzzParams> {
  const needed = op.parameters.filter(
    (p): p is OpenAPIV3.ParameterObject => 'in' in p && p.in === 'path',
  );
  const values: Record<string, unknown> = {};
  const owned = new Set<string>();
  if (needed.length === 0) return { values, owned };
  const credential = fixtureCredential(ctx);
  const take = (parameters: Record<string, unknown>, names: string[]) => {
    for (const name of names) {
      if (parameters[name] === undefined || name in values) continue;
      values[name] = parameters[name];
      owned.add(name);
    }
  };
  if (ctx.fixtures.producersOf(op).length > 0) {
    const made = await ctx.fixtures.paramsFor(op, credential);
    if (!('reason' in made))
      take(
        made.parameters,
        needed.map((p) => p.name),
      );
  }
  for (const param of needed) {
    if (param.name in values) continue;
    const donor = ctx.allOperations.find(
      (other) =>
        other !== op && other.parameters.includes(param) && ctx.fixtures.producersOf(other).length,
    );
    if (donor) {
      const made = await ctx.fixtures.paramsFor(donor, credential);
      if (!('reason' in made)) {
        const shared = donor.parameters.filter((p) =>
          needed.includes(p as OpenAPIV3.ParameterObject),
        );
        take(
          made.parameters,
          shared.map((p) => (p as OpenAPIV3.ParameterObject).name),
        );
        if (param.name in values) continue;
      }
    }
    const example = exampleValue(param);
    if (example !== undefined) values[param.name] = example;
  }
  return { values, owned };
}

/**
 * Whether a parameter's value may be sent to the operation: always for a safe method; for an
 * unsafe one only when it names a resource of the run, or sits below one in the path (a role
 * of the run's user, say), so that fuzzing never changes data the run did not create.
 */
export function mayUse(op: SpecOperation, params: FuzzParams, name: string): boolean {
  if (!['post', 'put', 'patch', 'delete'].includes(op.method)) return name in params.values;
  if (params.owned.has(name)) return true;
  if (!(name in params.values)) return false;
  const order = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const at = order.indexOf(name);
  return order.slice(0, at).some((earlier) => earlier !== undefined && params.owned.has(earlier));
}
