import type { SpecOperation } from '../../spec/operations.js';
import { describeResponse } from '../checks/support/probe-support.js';
import type { Exchange, PlannedRequest } from '../http/target-client.js';
import type { RunContext } from '../run-context.js';
import type { FuzzParams } from './fuzz-fixtures.js';
import type { FuzzCase } from './fuzz-operation.js';
import { judgeExchange } from './fuzz-oracles.js';
import { pathValues } from './fuzz-request.js';
import { readBackOperation, writtenMismatches } from './fuzz-read-back.js';
import { encodeComponent } from './fuzz-strings.js';
import { note, type OperationVerdict } from './fuzz-tally.js';

/** What reading back one accepted write needs. */
export interface ReadBackStep {
  ctx: RunContext;
  op: SpecOperation;
  testCase: FuzzCase;
  /** The write's exchange (2xx). */
  exchange: Exchange;
  params: FuzzParams;
  authorization: string | undefined;
  send(request: PlannedRequest): Promise<Exchange>;
  verdict: OperationVerdict;
}

/**
 * Reads back an accepted write and judges it (the read-back's answer goes through the same
 * oracles): a created resource through its producer's GET link (and it is adopted, so the
 * run's cleanup deletes it), a PUT or PATCH through the GET of its path, an action through the
 * GET of its parent path, a DELETE through the GET that must now find nothing.
 */
export async function readBack(step: ReadBackStep): Promise<void> {
  const { ctx, op, testCase, exchange, verdict } = step;
  const target = readTarget(step);
  if (!target) return;
  const read = await step.send({
    method: 'GET',
    path: target.path,
    headers: {
      Accept: 'application/json',
      ...(step.authorization ? { Authorization: step.authorization } : {}),
    },
  });
  const status = read.response.status;
  if (status === 0) return;
  verdict.readBacks++;
  for (const failure of judgeExchange(ctx.validator, target.op, read))
    note(
      verdict,
      { ...failure, message: `read-back ${target.op.operationId}: ${failure.message}` },
      read,
      testCase,
    );
  const fail = (message: string) =>
    note(
      verdict,
      {
        oracle: 'read_back',
        message,
        expected: 'a read-back that holds what the accepted write set and answered',
        actual: `GET ${read.request.url} answered ${describeResponse(read)}`,
      },
      exchange,
      testCase,
    );
  if (op.method === 'delete') {
    if (status >= 200 && status < 300)
      fail(
        `the DELETE answered ${exchange.response.status} but the resource still reads back (${status})`,
      );
    return;
  }
  if (status === 404 || status === 410) {
    fail(
      `the write answered ${exchange.response.status} but the read-back finds nothing (${status})`,
    );
    return;
  }
  // 429, or credentials that changed meanwhile: nothing to compare, and no reason to cry wolf.
  if (status !== 200) return;
  let mismatches: string[];
  try {
    mismatches = writtenMismatches(
      op,
      target.op,
      testCase.body,
      exchange.response.body,
      read.response.body,
    );
  } catch {
    return; // a value too deep to compare (it was accepted, so the schema allows depth)
  }
  for (const message of mismatches) fail(message);
}

/** The GET that reads the write back, at the write's own parameter values. */
function readTarget(step: ReadBackStep): { op: SpecOperation; path: string } | undefined {
  const { ctx, op, testCase, exchange, params } = step;
  if (op.method === 'post' && ctx.fixtures.isProducer(op)) {
    const resource = ctx.fixtures.adopt(
      op,
      exchange,
      pathValues(op, testCase, params),
      parse(testCase.body),
    );
    const link = resource.links.find(
      (l) =>
        l.target.method === 'get' &&
        [...l.target.path.matchAll(/\{([^}]+)\}/g)].every(
          (m) => l.parameters[m[1] as string] !== undefined,
        ),
    );
    if (!link) return undefined;
    const path = link.target.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
      encodeComponent(String(link.parameters[name])),
    );
    return { op: link.target, path };
  }
  // Read back only through a GET the run's scope holds (decision 0096).
  const read = readBackOperation(op, ctx.operations);
  if (!read) return undefined;
  // The write's own path, cut to the read's: the values exactly as the write sent them.
  const sent =
    exchange.request.url
      .slice(ctx.client.origin.length + ctx.client.basePath.length)
      .split('?')[0] ?? '';
  const depth = read.path.split('/').length;
  return { op: read, path: sent.split('/').slice(0, depth).join('/') };
}

function parse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
