import type { SpecOperation } from '../../../spec/operations.js';
import type { NegativeCase } from '../../generate/case-generator.js';
import type { OperationCall } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckFailure, ScenarioCheck } from '../check.js';
import { eachInOrder } from '../support/each-in-order.js';
import { refusalFaults, violationsOfCase } from '../support/refusal-entries.js';
import { declaredConventions } from '../../generate/declared-conventions.js';
import {
  credentialFor,
  describeResponse,
  pathParams,
  statusTally,
  validCall,
  type ProbeParams,
} from '../support/probe-support.js';

/** Bodies over this size are refused with 413 (our contract's limit, RFC 9110 15.5.14). */
const BODY_LIMIT_BYTES = 100 * 1024;

const documents = (op: SpecOperation, status: number) => String(status) in op.responses;

/** True when the case sends a body under a media type the operation does not take. */
function wrongMediaType(op: SpecOperation, call: OperationCall): boolean {
  if (call.body === undefined && call.rawBody === undefined) return false;
  if (call.contentType === undefined) return false;
  if (call.contentType === null) return true;
  const [type = '', ...params] = call.contentType.split(';').map((s) => s.trim().toLowerCase());
  const taken = Object.keys(op.requestBody?.content ?? {}).map((t) => t.toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '');
  return !taken.includes(type) || (charset !== undefined && charset !== 'utf-8');
}

function bodyBytes(call: OperationCall): number {
  const text = call.rawBody ?? (call.body !== undefined ? JSON.stringify(call.body) : '');
  return Buffer.byteLength(text);
}

/** The exact status a case must get when the spec documents it, else undefined (any 4xx). */
export function expectedStatus(op: SpecOperation, testCase: NegativeCase): number | undefined {
  if (wrongMediaType(op, testCase.call)) return documents(op, 415) ? 415 : undefined;
  if (bodyBytes(testCase.call) > BODY_LIMIT_BYTES) return documents(op, 413) ? 413 : undefined;
  return documents(op, 400) ? 400 : undefined;
}

const inPart = (testCase: NegativeCase, part: string) => testCase.pointer.startsWith(`#/${part}/`);

/**
 * The case's call on top of a valid request at the probe's path parameters, so that only the
 * case's violation is wrong (the generator fills other path parameters with made-up values;
 * real ones replace them, so that a 404 cannot answer first).
 */
export function negativeCall(
  ctx: RunContext,
  op: SpecOperation,
  testCase: NegativeCase,
  params: ProbeParams,
): OperationCall {
  const { path: _path, ...valid } = validCall(ctx, op, params);
  const ownsBody = !['path', 'query', 'header'].some((part) => inPart(testCase, part));
  const base: OperationCall = ownsBody ? (valid.query ? { query: valid.query } : {}) : valid;
  if (testCase.call.query || testCase.call.rawQuery !== undefined) delete base.query;
  const { path: casePath, ...rest } = testCase.call;
  const broken = inPart(testCase, 'path') ? testCase.pointer.slice('#/path/'.length) : undefined;
  const path = { ...params.parameters };
  if (broken !== undefined && casePath && broken in casePath) path[broken] = casePath[broken];
  return { ...base, ...rest, path };
}

/**
 * Why an answer does not judge the case, or undefined when it does: credentials, the rate
 * limit or a server error answered first (5xx is not_a_server_error's to report), or a 404
 * where the resource may be gone or the case's path value changes the route.
 */
function unjudged(testCase: NegativeCase, call: OperationCall, status: number): string | undefined {
  if (status === 401 || status === 403 || status === 429 || status >= 500) return String(status);
  if (status !== 404) return undefined;
  if (!inPart(testCase, 'path') && !inPart(testCase, 'query')) return '404';
  const values = Object.values(call.path ?? {}).map(String);
  return values.some((v) => v === '' || v.includes('/') || v === '.' || v === '..')
    ? '404'
    : undefined;
}

interface EntryFault {
  failure: CheckFailure;
  exchange: Exchange;
}

/**
 * What is wrong with the `errors` of a case's 400 (listEveryViolation): a case breaks one
 * place, so its 400 names that place, and only it (the contract: "one entry per violated
 * constraint", "a missing or unknown property points at itself").
 */
function caseEntryFault(
  ctx: RunContext,
  testCase: NegativeCase,
  exchange: Exchange,
): EntryFault | undefined {
  const failure = refusalFaults(ctx.spec, exchange, violationsOfCase(testCase))[0];
  return failure ? { failure, exchange } : undefined;
}

interface CaseFailure {
  testCase: NegativeCase;
  exchange: Exchange;
  expected: string;
}

/**
 * negative_data_rejection: every request that breaks one rule of the spec (a body, query or
 * path value out of its schema, a wrong Content-Type) is refused with a 4xx; when the spec
 * documents 400 (415, 413) for the operation, with exactly that. Each case is sent at real
 * path parameters with an otherwise valid request, so nothing else answers first. Where the
 * spec declares `x-apikit-http.listEveryViolation`, a case's 400 names the place it broke in
 * `errors`, and no place it did not (decision 0126).
 */
export const negativeDataRejection: ScenarioCheck = {
  kind: 'scenario',
  name: 'negative_data_rejection',
  description: 'Requests that break the spec are refused with 4xx (400/413/415 where documented)',
  async run(ctx, record) {
    // Conventions of a particular API are judged only where its spec declares them.
    const declared = declaredConventions(ctx.spec);
    const work = ctx.operations
      .map((op) => ({
        op,
        cases: ctx.generate
          .negativeCases(op)
          .filter((c) => !c.convention || declared.has(c.convention)),
      }))
      .filter((w) => w.cases.length > 0);
    if (work.length === 0) record.skip(undefined, 'no selected operation has constraints to break');
    await ctx.each(work, async ({ op, cases }) => {
      const credential = credentialFor(ctx, op);
      if (typeof credential === 'object' && 'reason' in credential)
        return record.skip(op, credential.reason);
      const params = await pathParams(ctx, op, { shared: true });
      if ('reason' in params) return record.skip(op, params.reason);
      const failures: CaseFailure[] = [];
      const masked: number[] = [];
      const statuses: number[] = [];
      let unlisted: EntryFault | undefined;
      // Built before any is sent: the generator's stream is drawn in the cases' order.
      const calls = cases.map((testCase) => ({
        testCase,
        call: negativeCall(ctx, op, testCase, params),
      }));
      const answers = await eachInOrder(ctx, calls, async ({ testCase, call }) => ({
        testCase,
        call,
        exchange: await ctx.call(op, call, credential),
      }));
      if (ctx.stopped()) return;
      for (const answer of answers) {
        if (!answer) continue;
        const { testCase, call, exchange } = answer;
        const status = exchange.response.status;
        statuses.push(status);
        const expected = expectedStatus(op, testCase);
        if (status >= 200 && status < 300) {
          failures.push({ testCase, exchange, expected: expected ? String(expected) : 'a 4xx' });
        } else if (unjudged(testCase, call, status)) {
          masked.push(status);
        } else if (expected ? status !== expected : status < 400 || status >= 500) {
          failures.push({ testCase, exchange, expected: expected ? String(expected) : 'a 4xx' });
        } else {
          unlisted ??= caseEntryFault(ctx, testCase, exchange);
        }
      }
      const first = failures[0];
      if (first) {
        const list = failures
          .slice(0, 3)
          .map(
            (f) =>
              `${f.testCase.pointer} (${f.testCase.description}): ${f.exchange.response.status}`,
          )
          .join('; ');
        const accepted = failures.filter((f) => f.exchange.response.status < 300).length;
        return record.fail(
          op,
          {
            message: `${failures.length} of ${cases.length} invalid request(s) not refused as documented${accepted ? ` (${accepted} accepted)` : ''}: ${list}${failures.length > 3 ? '; …' : ''}`,
            expected: `${first.expected} for ${first.testCase.pointer}: ${first.testCase.description}`,
            actual: describeResponse(first.exchange),
          },
          first.exchange,
        );
      }
      if (unlisted) return record.fail(op, unlisted.failure, unlisted.exchange);
      if (masked.length === cases.length)
        return record.skip(op, `no answer judged the data: ${statusTally(masked)}`);
      record.pass(
        op,
        `${cases.length - masked.length} invalid request(s) refused (${statusTally(statuses)})`,
      );
    });
  },
};
