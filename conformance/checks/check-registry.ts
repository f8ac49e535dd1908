import type { Check } from './check.js';

/**
 * The checks the runner knows, by name. Built-in checks register themselves in
 * `builtin-checks.ts`; a user's own check registers the same way and is selected by name with
 * `--checks`, like the built-in ones.
 *
 * @example
 * const registry = new CheckRegistry();
 * registry.register(myCheck);
 * registry.select(['not_a_server_error', 'my_check']);
 */
export class CheckRegistry {
  private readonly checks = new Map<string, Check>();

  register(...checks: Check[]): this {
    for (const check of checks) {
      if (this.checks.has(check.name))
        throw new Error(`a check named ${check.name} is already registered`);
      this.checks.set(check.name, check);
    }
    return this;
  }

  get names(): string[] {
    return [...this.checks.keys()];
  }

  all(): Check[] {
    return [...this.checks.values()];
  }

  /** The named checks (all when `names` is empty); an unknown name is an error listing the known ones. */
  select(names: readonly string[] = []): Check[] {
    if (names.length === 0) return this.all();
    const unknown = names.filter((n) => !this.checks.has(n));
    if (unknown.length) {
      throw new Error(`unknown check(s): ${unknown.join(', ')}; known: ${this.names.join(', ')}`);
    }
    return names.map((n) => this.checks.get(n) as Check);
  }
}
