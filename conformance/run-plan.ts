import { isDestructive } from '../spec/apikit-extensions.js';
import type { OpenApiDocument } from '../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../spec/operations.js';
import { createDefaultRegistry } from './checks/builtin-checks.js';
import type { Check } from './checks/check.js';
import { CheckRegistry } from './checks/check-registry.js';
import { ConformanceSetupError, type ConformanceOptions } from './conformance-options.js';
import { createFuzzChecks, FUZZ_CHECK_NAMES, type FuzzChecks } from './fuzz/fuzz-checks.js';
import { loadRunSpec } from './load-run-spec.js';
import { RunScope } from './run-scope.js';
import { selectOperations } from './select-operations.js';
import { OPERATION_IMPLEMENTED } from './checks/probe/operation-implemented.js';
import { consumerInteractions } from './interactions/consumer-interactions.js';

/** What a run will do, settled before its first request. */
export interface RunPlan {
  spec: OpenApiDocument;
  /** Every operation of the spec. */
  allOperations: SpecOperation[];
  /** The operations selected by include/exclude, destructive ones left out. */
  operations: SpecOperation[];
  /** Destructive operations left out (reported as skipped). */
  destructive: SpecOperation[];
  /** What the checks may touch: `operations`, less what the target turns out to lack. */
  scope: RunScope;
  /** The selected checks, in the order they run. */
  checks: Check[];
  /** The fuzz phase's checks and outcome, when the run fuzzes. */
  fuzz: FuzzChecks | undefined;
}

/** Loads the spec and settles operations and checks; every bad option is a ConformanceSetupError. */
export async function planRun(options: ConformanceOptions): Promise<RunPlan> {
  const spec = await loadRunSpec(options.specPath).catch((error: Error) => {
    throw new ConformanceSetupError(
      error.message.startsWith('cannot fetch') || / is neither JSON nor YAML/.test(error.message)
        ? error.message
        : `the spec is not a valid OpenAPI 3.0 description: ${error.message}`,
    );
  });
  const allOperations = listOperations(spec);
  try {
    const selected = selectOperations(allOperations, options.include, options.exclude);
    const destructive = options.allowDestructive ? [] : selected.filter(isDestructive);
    const operations = selected.filter((op) => !destructive.includes(op));
    const { checks, fuzz } = options.interactions
      ? replayChecks(options, options.interactions)
      : selectChecks(options);
    if (!/^https?:\/\//.test(options.baseUrl))
      throw new Error(`not an http(s) URL: ${options.baseUrl}`);
    const scope = new RunScope(allOperations, operations, destructive);
    return { spec, allOperations, operations, destructive, scope, checks, fuzz };
  } catch (error) {
    throw new ConformanceSetupError((error as Error).message);
  }
}

/** Fuzz cases per operation when `checks` names a fuzz check and no `fuzz` option is given. */
export const IMPLIED_FUZZ_CASES = 10;

/**
 * The checks of the run: `checks` (default all), less `excludeChecks`; every name
 * `listChecks` gives is accepted. A fuzz check named without `fuzz` brings the fuzz phase with
 * IMPLIED_FUZZ_CASES (decision 0096). With `fuzz`, the fuzz checks come after the selected
 * ones (all of the registry's without `checks`; the response checks alone with `fuzz.only`),
 * all four unless `checks` names some of them.
 * `operation_implemented`, where the registry has it, comes first unless excluded: the checks
 * named must not pile failures on operations the target lacks.
 */
function selectChecks(options: ConformanceOptions): { checks: Check[]; fuzz?: FuzzChecks } {
  const registry = options.registry ?? createDefaultRegistry();
  const known = listChecks(registry).map((c) => c.name);
  const named = [...(options.checks ?? []), ...(options.excludeChecks ?? [])];
  const unknown = named.filter((n) => !known.includes(n));
  if (unknown.length)
    throw new Error(`unknown check(s): ${unknown.join(', ')}; known: ${known.join(', ')}`);
  const isFuzz = (name: string) => FUZZ_CHECK_NAMES.includes(name);
  const excluded = new Set(options.excludeChecks ?? []);
  const settle = (checks: Check[], fuzz?: FuzzChecks) => {
    const kept = checks.filter((c) => !excluded.has(c.name));
    const probe = registry.all().find((c) => c.name === OPERATION_IMPLEMENTED);
    const first = probe && !excluded.has(probe.name) && !kept.includes(probe) ? [probe] : [];
    return { checks: [...first, ...kept], ...(fuzz ? { fuzz } : {}) };
  };
  const fuzzOptions =
    options.fuzz ??
    (options.checks?.some((n) => isFuzz(n) && !registry.names.includes(n))
      ? { perOperation: IMPLIED_FUZZ_CASES }
      : undefined);
  if (!fuzzOptions) return settle(registry.select(options.checks));
  const fuzz = createFuzzChecks({
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...fuzzOptions,
  });
  const all = new CheckRegistry().register(
    ...registry.all().filter((c) => !isFuzz(c.name)),
    ...fuzz.checks,
  );
  if (options.fuzz?.only)
    return settle(
      all.all().filter((c) => isFuzz(c.name) || c.kind === 'response'),
      fuzz,
    );
  // Fuzz checks named are the ones that run; none named, all four come after the named checks.
  const chosen = options.checks ?? [];
  const names = chosen.length
    ? [...new Set([...chosen, ...(chosen.some(isFuzz) ? [] : FUZZ_CHECK_NAMES)])]
    : [];
  return settle(all.select(names), fuzz);
}

/**
 * A run with recorded interactions (decision 0113): the replay alone, verify-only, unless
 * `checks` names others, which run first (with the fuzz phase they bring).
 */
function replayChecks(
  options: ConformanceOptions,
  file: NonNullable<ConformanceOptions['interactions']>,
): { checks: Check[]; fuzz?: FuzzChecks } {
  const replay = consumerInteractions(file);
  if (!options.checks?.length && !options.fuzz) return { checks: [replay] };
  const others = selectChecks(options);
  return { ...others, checks: [...others.checks, replay] };
}

/**
 * Every check a run can select, for a list of them (`apikit conform --list-checks`): the
 * registry's (default: the built-in checks), then the fuzz checks, which run with `fuzz`.
 */
export function listChecks(registry: CheckRegistry = createDefaultRegistry()): Check[] {
  const fuzzChecks = createFuzzChecks({ perOperation: 0 }).checks;
  return [...registry.all(), ...fuzzChecks.filter((c) => !registry.names.includes(c.name))];
}
