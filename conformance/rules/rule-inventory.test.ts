import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { faults } from '../../test/support/fault-injection/faults.js';
import { createDefaultRegistry } from '../checks/builtin-checks.js';
import { FUZZ_CHECK_NAMES } from '../fuzz/fuzz-checks.js';
import { renderRules } from './render-rules.js';
import { clausesOf, ruleStatus } from './rule.js';
import { checksWithoutRule, ruleInventory } from './rule-inventory.js';

const rules = ruleInventory.flatMap((area) => area.rules.map((rule) => ({ area, rule })));
const clauses = rules.flatMap(({ rule }) => clausesOf(rule));
const checkNames = new Set([...createDefaultRegistry().names, ...FUZZ_CHECK_NAMES]);
const faultByName = new Map(faults.map((f) => [f.name, f]));

describe('the rule inventory', () => {
  it('has unique ids of the stable form area.subject(.rule), each under its own area', () => {
    const ids = rules.map(({ rule }) => rule.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const { area, rule } of rules) {
      expect(rule.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*){1,3}$/);
      expect(area.id).toMatch(/^[a-z]+$/);
    }
  });

  it('names only checks of the default registry and the fuzz checks', () => {
    const unknown = rules.flatMap(({ rule }) => rule.checks.filter((c) => !checkNames.has(c)));
    expect(unknown).toEqual([]);
  });

  it('gives every registered check a rule, or says why it judges none', () => {
    const named = new Set(rules.flatMap(({ rule }) => rule.checks));
    const without = [...checkNames].filter((c) => !named.has(c));
    expect(without.sort()).toEqual(Object.keys(checksWithoutRule).sort());
  });

  it('names only faults of the fault table, each expected to be caught by one of its checks', () => {
    for (const clause of clauses) {
      for (const name of clause.faults) {
        const fault = faultByName.get(name);
        expect(fault, `${clause.id}: unknown fault ${name}`).toBeDefined();
        expect(clause.checks, `${clause.id}: ${name} is expected of another check`).toContain(
          fault!.expectedCheck,
        );
      }
    }
  });

  it('splits rules into clauses with unique kebab ids, one clause proven by each fault', () => {
    for (const { rule } of rules) {
      if (!rule.clauses) continue;
      const ids = rule.clauses.map((c) => c.id);
      expect(ids.length, rule.id).toBeGreaterThan(1);
      expect(new Set(ids).size, rule.id).toBe(ids.length);
      for (const id of ids) expect(id, rule.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    // A fault breaks one clause: listed under two, it would prove neither alone.
    const owners = new Map<string, string[]>();
    for (const clause of clauses)
      for (const name of clause.faults) owners.set(name, [...(owners.get(name) ?? []), clause.id]);
    expect([...owners].filter(([, ids]) => ids.length > 1)).toEqual([]);
  });

  it('gives every clause a check and a fault, or says why not', () => {
    for (const clause of clauses) {
      const status = ruleStatus(clause);
      if (status === 'not-checkable') {
        expect(clause.notCheckable, clause.id).not.toBe('');
        expect([...clause.checks, ...clause.faults], clause.id).toEqual([]);
      } else if (status !== 'proven') {
        expect(clause.gap, clause.id).toMatch(/^no (check|fault) yet/);
      }
      expect(clause.says.length, clause.id).toBeGreaterThan(0);
    }
  });

  it('lists every fault of the table under some rule', () => {
    const named = new Set(rules.flatMap(({ rule }) => rule.faults));
    expect(faults.map((f) => f.name).filter((n) => !named.has(n))).toEqual([]);
  });

  it('is what docs/conformance-rules.md shows (npm run render:rules)', async () => {
    const file = fileURLToPath(new URL('../../docs/conformance-rules.md', import.meta.url));
    const options = { ...(await prettier.resolveConfig(file)), filepath: file };
    const rendered = await prettier.format(renderRules(ruleInventory, checksWithoutRule), options);
    expect(readFileSync(file, 'utf8')).toBe(rendered);
  });
});
