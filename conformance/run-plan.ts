import { isDestructive } from '../spec/apikit-extensions.js';
import type { OpenApiDocument } from '../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../spec/operations.js';
import { createDefaultRegistry } from './checks/builtin-checks.js';
import type { Check } from './checks/check.js';
import { CheckRegistry } from './checks/check-registry.js';
import { ConformanceSetupError, type ConformanceOptions } from './conformance-options.js';
import { createFuzzChecks, FUZZ_CHECK_NAMES, type FuzzChecks } from './fuzz/fuzz-checks.js';
import { loadRunSpec } from './load-run-spec.js';
import { selectOperations } from './select-operations.js';

/** What a run will do, settled before its first request. */
export interface RunPlan {
  spec: OpenApiDocument;
  /** Every operation of the spec. */
  allOperations: SpecOperation[];
  /** The operations selected by include/exclude, destructive ones left out. */
  operations: SpecOperation[];
  /** Destructive operations left out (reported as skipped). */
  destructive: SpecOperation[];
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
    const { checks, fuzz } = selectChecks(options);
    if (!/^https?:\/\//.test(options.baseUrl))
      throw new Error(`not an http(s) URL: ${options.baseUrl}`);
    return { spec, allOperations, operations, destructive, checks, fuzz };
  } catch (error) {
    throw new ConformanceSetupError((error as Error).message);
  }
}

/**
 * The checks of the run. With `fuzz`, the fuzz checks come after the selected ones (all of
 * the registry's without `checks`; the response checks alone with `fuzz.only`).
 */
function selectChecks(options: ConformanceOptions): { checks: Check[]; fuzz?: FuzzChecks } {
  const registry = options.registry ?? createDefaultRegistry();
  const isFuzz = (name: string) => FUZZ_CHECK_NAMES.includes(name);
  if (!options.fuzz) {
    const fuzzNamed = (options.checks ?? []).filter(
      (n) => isFuzz(n) && !registry.names.includes(n),
    );
    if (fuzzNamed.length > 0)
      throw new Error(`${fuzzNamed.join(', ')} run only in a fuzz phase (apikit conform --fuzz N)`);
    return { checks: registry.select(options.checks) };
  }
  const fuzz = createFuzzChecks({
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...options.fuzz,
  });
  const all = new CheckRegistry().register(
    ...registry.all().filter((c) => !isFuzz(c.name)),
    ...fuzz.checks,
  );
  if (options.fuzz.only)
    return { checks: all.all().filter((c) => isFuzz(c.name) || c.kind === 'response'), fuzz };
  const names = options.checks?.length
    ? [...new Set([...options.checks, ...FUZZ_CHECK_NAMES])]
    : [];
  return { checks: all.select(names), fuzz };
}

/**
 * Every check a run can select, for a list of them (`apikit conform --list-checks`): the
 * registry's (default: the built-in checks), then the fuzz checks, which run with `fuzz`.
 */
export function listChecks(registry: CheckRegistry = createDefaultRegistry()): Check[] {
  const fuzzChecks = createFuzzChecks({ perOperation: 0 }).checks;
  return [...registry.all(), ...fuzzChecks.filter((c) => !registry.names.includes(c.name))];
}
