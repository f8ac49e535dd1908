import { declaredHttp } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { NegativeCase } from '../../generate/case-generator.js';
import { declaredConventions } from '../../generate/declared-conventions.js';
import type { RunContext } from '../../run-context.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { credentialFor, pathParams, type ProbeParams } from '../support/probe-support.js';
import { refusalFaults, type KnownViolations } from '../support/refusal-entries.js';
import { violationsAtOnce } from '../support/violations-at-once.js';
import { negativeCall } from './negative-data.js';

/** A request to send and what it breaks: the places its 400 must name in `errors`. */
interface Probe {
  testCase: NegativeCase;
  known: KnownViolations;
}

const segments = (pointer: string) => pointer.split('/').length - 1;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A body breaking up to three top-level properties at once, each as one case breaks it. */
function combined(base: NegativeCase[]): Probe | undefined {
  const picked: NegativeCase[] = [];
  for (const c of base) {
    if (segments(c.pointer) !== 1 || !isObject(c.call.body)) continue;
    if (picked.some((p) => p.pointer === c.pointer)) continue;
    picked.push(c);
    if (picked.length === 3) break;
  }
  if (picked.length < 2) return undefined;
  const body = { ...(picked[0]!.call.body as Record<string, unknown>) };
  for (const c of picked.slice(1)) {
    const name = decodeURIComponent(c.pointer.slice(2)).replace(/~1/g, '/').replace(/~0/g, '~');
    const broken = c.call.body as Record<string, unknown>;
    if (name in broken) body[name] = broken[name];
    else delete body[name];
  }
  return {
    testCase: { ...picked[0]!, call: { ...picked[0]!.call, body } },
    known: violationsAtOnce(picked),
  };
}

/** The probes of an operation: the deepest body violation, a query and a path one, and all at once. */
function probesOf(cases: NegativeCase[]): Probe[] {
  const body = cases.filter(
    (c) => c.call.body !== undefined && c.call.contentType === undefined && c.pointer !== '#',
  );
  const deepest = [...body].sort((a, b) => segments(b.pointer) - segments(a.pointer))[0];
  const query = cases.find((c) => c.pointer.startsWith('#/query/'));
  const path = cases.find(
    (c) =>
      c.pointer.startsWith('#/path/') &&
      Object.values(c.call.path ?? {}).every((v) => !['', '.', '..'].includes(String(v))) &&
      !Object.values(c.call.path ?? {}).some((v) => String(v).includes('/')),
  );
  const probes = [deepest, query, path]
    .filter((c): c is NegativeCase => c !== undefined)
    .map((c) => ({ testCase: c, known: violationsAtOnce([c]) }));
  const all = combined(body);
  if (all) probes.push(all);
  return probes;
}

async function judge(
  ctx: RunContext,
  record: CheckRecorder,
  op: SpecOperation,
  probes: Probe[],
  params: ProbeParams,
) {
  const credential = credentialFor(ctx, op);
  if (typeof credential === 'object' && 'reason' in credential)
    return record.skip(op, credential.reason);
  let judged = 0;
  for (const probe of probes) {
    if (ctx.stopped()) return;
    const exchange = await ctx.call(op, negativeCall(ctx, op, probe.testCase, params), credential);
    // A 2xx fails here too (the harness swaps one exchange's status); negative_data_rejection
    // judges the other statuses; only a 400 has errors to judge.
    const fault = refusalFaults(ctx.spec, exchange, probe.known)[0];
    if (fault) return record.fail(op, fault, exchange);
    if (exchange.response.status === 400) judged++;
  }
  if (judged === 0) return record.skip(op, 'no probe was answered 400');
  record.pass(op, `${judged} 400 answer(s) name every broken part by its pointer`);
}

/**
 * validation_errors, where the spec declares `x-apikit-http.listEveryViolation`: a 400 lists
 * every violated constraint in `errors`, each with a `pointer` in fragment form naming the
 * broken part (`#/items/0/quantity` in the body, `#/query/size`, `#/path/id`). Per operation:
 * its deepest body violation, a query and a path violation, and a body breaking up to three
 * properties at once, which must all be named, and nothing else (decision 0126). A probe
 * answered 2xx fails: every one breaks the spec.
 */
export const validationErrors: ScenarioCheck = {
  kind: 'scenario',
  name: 'validation_errors',
  description: "A 400 names every violation by its pointer in errors[] (where it's declared)",
  async run(ctx, record) {
    if (!declaredHttp(ctx.spec).listEveryViolation)
      return record.skip(undefined, 'the spec does not declare x-apikit-http.listEveryViolation');
    const declared = declaredConventions(ctx.spec);
    const work = ctx.operations
      .map((op) => ({
        op,
        probes: probesOf(
          ctx.generate.negativeCases(op).filter((c) => !c.convention || declared.has(c.convention)),
        ),
      }))
      .filter((w) => w.probes.length > 0 && '400' in w.op.responses);
    await ctx.each(work, async ({ op, probes }) => {
      const params = await pathParams(ctx, op, { shared: true });
      if ('reason' in params) return record.skip(op, params.reason);
      await judge(ctx, record, op, probes, params);
    });
  },
};
