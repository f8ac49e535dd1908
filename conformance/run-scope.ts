import type { SpecOperation } from '../spec/operations.js';
import type { PlannedRequest } from './http/target-client.js';

/**
 * A request a check wanted to send to an operation it may not touch: one outside the run's
 * selection, or one the target does not implement. The runner records the check as skipped
 * for it, naming the operation, rather than as failed or crashed.
 */
export class OperationUnavailableError extends Error {
  override name = 'OperationUnavailableError';
  constructor(
    readonly operation: SpecOperation,
    readonly reason: string,
  ) {
    super(
      `needs ${operation.operationId} (${operation.method.toUpperCase()} ${operation.path}), which ${reason}`,
    );
  }
}

/** Why an operation the spec declares is not the run's to call. */
export const OUT_OF_SCOPE = 'is out of scope (--include/--exclude)';

/**
 * What a run may touch (decision 0096): the operations selected by --include/--exclude (the
 * OPTIONS of a selected path with them), less those the target turns out not to implement
 * (`operation_implemented` marks them). Checks judge `operations`; a request to any other
 * operation of the spec is refused before it is sent, and a result on one is not reported.
 *
 * @example
 * const scope = new RunScope(all, selected);
 * scope.markMissing(getOrder, 'every request answered 404 like an unknown route');
 * scope.operations; // selected, without getOrder
 * scope.unavailable(getOrder); // 'is not implemented by the target (operation_implemented)'
 */
export class RunScope {
  private readonly selected: ReadonlySet<SpecOperation>;
  private readonly destructive: ReadonlySet<SpecOperation>;
  private readonly missing = new Map<SpecOperation, string>();
  private judged: SpecOperation[];
  private readonly templates: { op: SpecOperation; pattern: RegExp; literal: number }[];

  constructor(
    readonly all: SpecOperation[],
    selected: SpecOperation[],
    /** Selected, but left out as destructive: reported as skipped, never called. */
    destructive: SpecOperation[] = [],
  ) {
    this.selected = new Set(selected);
    this.destructive = new Set(destructive);
    this.judged = selected;
    this.templates = all.map((op) => ({
      op,
      pattern: templatePattern(op.path),
      literal: op.path.replace(/\{[^}]+\}/g, '').length,
    }));
  }

  /** The operations the checks judge: in scope and not found missing, in spec order. */
  get operations(): SpecOperation[] {
    return this.judged;
  }

  /** In the selection (whether or not the target implements it). */
  includes(op: SpecOperation): boolean {
    return this.selected.has(op);
  }

  /** Whether the report may hold a result on `op`: selected, or left out as destructive. */
  reports(op: SpecOperation): boolean {
    return this.selected.has(op) || this.destructive.has(op);
  }

  /** Operations found missing, with why, in spec order. */
  missingOperations(): { op: SpecOperation; reason: string }[] {
    return [...this.missing].map(([op, reason]) => ({ op, reason }));
  }

  /** Why `op` is missing on the target, if it is. */
  missingReason(op: SpecOperation): string | undefined {
    return this.missing.get(op);
  }

  /** Takes `op` out of what the checks judge: the target does not implement it. */
  markMissing(op: SpecOperation, reason: string): void {
    if (!this.selected.has(op)) return;
    this.missing.set(op, reason);
    this.judged = this.judged.filter((o) => !this.missing.has(o));
  }

  /** Why a check may not call `op`, or undefined when it may. */
  unavailable(op: SpecOperation): string | undefined {
    if (this.destructive.has(op))
      return 'is destructive (x-apikit-destructive): pass --allow-destructive';
    if (!this.selected.has(op)) return OUT_OF_SCOPE;
    if (this.missing.has(op)) return 'is not implemented by the target (operation_implemented)';
    return undefined;
  }

  /**
   * Refuses a request that addresses an operation the run may not call (HEAD counts as the
   * path's GET): a check's raw request is held to the scope like its `ctx.call`. Requests that
   * address no operation (an undeclared method, an unknown path) are the check's business.
   */
  guard(request: PlannedRequest): void {
    const op = this.operationOf(request);
    const why = op && this.unavailable(op);
    if (op && why) throw new OperationUnavailableError(op, why);
  }

  /** The operation a request addresses by method and path, the most literal template first. */
  operationOf(request: Pick<PlannedRequest, 'method' | 'path'>): SpecOperation | undefined {
    const path = request.path.split('?')[0] ?? '';
    let method = request.method.toLowerCase();
    const matching = this.templates.filter((t) => t.pattern.test(path));
    if (method === 'head' && !matching.some((t) => t.op.method === 'head')) method = 'get';
    return matching.filter((t) => t.op.method === method).sort((a, b) => b.literal - a.literal)[0]
      ?.op;
  }
}

function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) =>
      /^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`);
}
