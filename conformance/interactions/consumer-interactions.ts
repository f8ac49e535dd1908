import { uniqueFields } from '../../spec/apikit-extensions.js';
import {
  PLACEHOLDERS,
  type InteractionFile,
  type RecordedInteraction,
} from '../../spec/interactions/interaction-file.js';
import type { SpecOperation } from '../../spec/operations.js';
import type { Credential } from '../auth-session.js';
import type { CheckRecorder, ScenarioCheck } from '../checks/check.js';
import { readerOf } from '../checks/support/stateful-support.js';
import type { OperationCall } from '../http/build-request.js';
import type { RunContext } from '../run-context.js';
import { OperationUnavailableError } from '../run-scope.js';
import type { Unavailable } from '../stateful/fixtures.js';
import { judgeAnswer } from './judge-answer.js';
import { testNames } from './consumer-coverage.js';
import { replayCall, replayCredential, unsendable, type ReplayValues } from './replay-request.js';
import {
  duplicateHolder,
  freeResource,
  listItem,
  matchPath,
  refusingState,
  replayPath,
  type ReplayPath,
} from './replay-state.js';

export const CONSUMER_INTERACTIONS = 'consumer_interactions';

/** Statuses a replay provokes by sending what the frontend sent, in the state made for it. */
const AS_SENT = new Set([400, 401, 403, 404, 405, 406, 412, 413, 415, 422, 428]);

/** The replay's verdict per interaction key, for the consumer coverage. */
export type InteractionVerdicts = Map<string, 'passed' | 'failed' | 'skipped'>;

export interface ConsumerInteractionsCheck extends ScenarioCheck {
  file: InteractionFile;
  verdicts: InteractionVerdicts;
}

/**
 * `consumer_interactions` (`apikit conform --interactions FILE`, decision 0113): each
 * interaction a frontend's tests had with the mocks, replayed against the target in a state
 * made through the contract's own operations, its answer judged against the mock's.
 */
export function consumerInteractions(file: InteractionFile): ConsumerInteractionsCheck {
  const verdicts: InteractionVerdicts = new Map();
  return {
    kind: 'scenario',
    name: CONSUMER_INTERACTIONS,
    description: `Replays the interactions ${file.consumer}'s tests recorded with the mocks; each answer keeps the status, headers and fields the frontend saw`,
    file,
    verdicts,
    async run(ctx, record) {
      const run = Date.now().toString(36);
      const items = file.interactions.map((interaction, index) => ({ interaction, index }));
      await ctx.each(items, async ({ interaction, index }) => {
        const verdict = await replayOne(ctx, record, interaction, `${run}x${index}`);
        verdicts.set(interaction.key, verdict);
      });
    },
  };
}

/** How the reports name an interaction: its key and the tests relying on it. */
export function interactionLabel(interaction: RecordedInteraction): string {
  return `interaction "${interaction.key}" (relied on by ${testNames(interaction).join('; ')})`;
}

async function replayOne(
  ctx: RunContext,
  record: CheckRecorder,
  interaction: RecordedInteraction,
  tag: string,
): Promise<'passed' | 'failed' | 'skipped'> {
  const label = interactionLabel(interaction);
  const op = ctx.operation(interaction.operationId);
  if (!op) {
    record.skip(
      undefined,
      `${label}: skipped: ${interaction.operationId} is not an operation of the contract`,
    );
    return 'skipped';
  }
  try {
    const sent = await replay(ctx, op, interaction, tag);
    if ('reason' in sent) {
      record.skip(op, `${label}: skipped: ${sent.reason}`);
      return 'skipped';
    }
    const judged = judgeAnswer(ctx, op, interaction, sent);
    const notJudged = judged.unjudged.length ? ` (not judged: ${judged.unjudged.join(', ')})` : '';
    if (judged.differences.length === 0) {
      record.pass(
        op,
        `${label}: answered ${interaction.response.status} with the headers and fields the frontend saw${notJudged}`,
        sent,
      );
      return 'passed';
    }
    const more =
      judged.differences.length > 1 ? ` (and ${judged.differences.length - 1} more)` : '';
    record.fail(
      op,
      {
        message: `${label}: ${judged.differences[0]}${more}`,
        expected: `${interaction.key}: status ${interaction.response.status}, with every header and body field the frontend saw, of the same JSON type`,
        actual: judged.differences.join('; '),
      },
      sent,
    );
    return 'failed';
  } catch (error) {
    if (!(error instanceof OperationUnavailableError)) throw error;
    record.skip(op, `${label}: skipped: it ${error.message}`);
    return 'skipped';
  }
}

/**
 * Why a canned answer (decision 0112's `canned`) is not replayed: the test chose it, a backend
 * gives it only in a state the test never made through the contract.
 */
export function cannedReason(interaction: RecordedInteraction): string {
  const how =
    interaction.canned === 'override'
      ? 'mock.override'
      : `Prefer: ${interaction.request.headers['prefer'] ?? 'code=…'}`;
  return `the frontend's test forced this answer with ${how}; a backend is not expected to give it`;
}

/** The state made, the request mapped, and the answer: or why it could not be done honestly. */
async function replay(
  ctx: RunContext,
  op: SpecOperation,
  interaction: RecordedInteraction,
  tag: string,
) {
  if (interaction.canned) return { reason: cannedReason(interaction) };
  const notSent = unsendable(interaction);
  if (notSent) return notSent;
  const credential = replayCredential(ctx, op, interaction);
  if (typeof credential === 'object' && 'reason' in credential) return credential;
  const recordedPath = matchPath(op.path, interaction.request.path);
  if (!recordedPath)
    return { reason: `its path ${interaction.request.path} is not one of ${op.path}` };
  const owner: Credential = ctx.auth.has('admin') ? 'admin' : 'user';
  const path = await replayPath(ctx, op, recordedPath, owner);
  if ('reason' in path) return path;
  const values = await replayValues(ctx, op, interaction, path, credential, tag);
  const call = replayCall(op, interaction, values);
  const setUp = await stateFor(ctx, op, interaction, path, call, owner, recordedPath);
  if (setUp) return setUp;
  if (path.resource) await listItem(ctx, op, interaction, path, owner);
  const conditional = await conditionalHeaders(ctx, op, interaction, call, credential);
  if (conditional) return conditional;
  return ctx.call(op, call, credential);
}

/** The state the recorded status implies: an absent id, a duplicate, a refusing state. */
async function stateFor(
  ctx: RunContext,
  op: SpecOperation,
  interaction: RecordedInteraction,
  path: ReplayPath,
  call: OperationCall,
  owner: Credential,
  recordedPath: Record<string, string>,
): Promise<Unavailable | undefined> {
  const status = interaction.response.status;
  if (status === 404) return freeResource(ctx, path, recordedPath);
  const keyed = interaction.request.headers['idempotency-key'] !== undefined;
  if (status < 400 || (AS_SENT.has(status) && !(keyed && status === 422))) return undefined;
  if (status === uniqueFields(op)?.conflictStatus)
    return duplicateHolder(ctx, op, call.body, path, owner);
  if (status === 429 || status >= 500)
    return {
      reason: `the ${status} it shows is a failure the mocks gave on their own (no test forced it): a replay cannot ask a backend for one`,
    };
  return refusingState(ctx, op, interaction, path);
}

async function replayValues(
  ctx: RunContext,
  op: SpecOperation,
  interaction: RecordedInteraction,
  path: ReplayPath,
  credential: Credential,
  tag: string,
): Promise<ReplayValues> {
  const who = ctx.auth.has('admin') ? 'admin' : 'user';
  const success = interaction.response.status < 300;
  const isLogin = op.operationId === ctx.auth.loginOperation?.operationId;
  const wantsRefresh = JSON.stringify(interaction.request.body ?? null).includes(
    PLACEHOLDERS.refreshToken,
  );
  return {
    path,
    tag,
    accessToken:
      credential === 'user' || credential === 'admin'
        ? await ctx.auth.accessToken(credential)
        : undefined,
    login: isLogin && success ? ctx.auth.credentials(who) : undefined,
    refreshToken: wantsRefresh && success ? await freshRefreshToken(ctx, who) : undefined,
  };
}

/** A refresh token of a login of its own, so that the run's session is left alone. */
async function freshRefreshToken(
  ctx: RunContext,
  who: 'user' | 'admin',
): Promise<string | undefined> {
  const login = ctx.auth.loginOperation;
  const account = ctx.auth.credentials(who) ?? ctx.auth.credentials('user');
  if (!login || !account) return undefined;
  const answer = await ctx.call(login, { body: account }, 'none');
  try {
    const token: unknown = Reflect.get(JSON.parse(answer.response.body) as object, 'refreshToken');
    return typeof token === 'string' ? token : undefined;
  } catch {
    return undefined;
  }
}

const LONG_AGO = 'Sat, 01 Jan 2000 00:00:00 GMT';

/**
 * The recorded validators were the mock's: the replay sends the backend's own (read first)
 * where the precondition held for the frontend, and ones that cannot hold where it did not.
 */
async function conditionalHeaders(
  ctx: RunContext,
  op: SpecOperation,
  interaction: RecordedInteraction,
  call: OperationCall,
  credential: Credential,
): Promise<Unavailable | undefined> {
  const h = interaction.request.headers;
  const status = interaction.response.status;
  const headers = (call.headers ??= {});
  const held = (name: string, heldWhen: boolean) =>
    h[name] !== undefined && h[name] !== '*' && heldWhen;
  for (const name of ['if-none-match', 'if-match'] as const)
    if (h[name] === '*') headers[name === 'if-match' ? 'If-Match' : 'If-None-Match'] = '*';
  const needsCurrent =
    held('if-none-match', status === 304) ||
    held('if-modified-since', status === 304) ||
    held('if-match', status !== 412) ||
    held('if-unmodified-since', status !== 412);
  let etag: string | null = null;
  let lastModified: string | null = null;
  if (needsCurrent) {
    const reader = op.method === 'get' ? op : readerOf(ctx, op);
    if (!reader)
      return { reason: `no GET of ${op.path} gives the validators its precondition needs` };
    const current = await ctx.call(
      reader,
      {
        path: call.path ?? {},
        ...(reader === op && call.rawQuery ? { rawQuery: call.rawQuery } : {}),
      },
      credential,
    );
    etag = current.headers.get('etag');
    lastModified = current.headers.get('last-modified');
  }
  const set = (recorded: string, header: string, value: string | null, what: string) => {
    if (h[recorded] === undefined || h[recorded] === '*') return undefined;
    if (value === null) return { reason: `the backend's GET gave no ${what} to send in ${header}` };
    headers[header] = value;
    return undefined;
  };
  return (
    set('if-none-match', 'If-None-Match', status === 304 ? etag : '"apikit-no-match"', 'ETag') ??
    set(
      'if-modified-since',
      'If-Modified-Since',
      status === 304 ? lastModified : LONG_AGO,
      'Last-Modified',
    ) ??
    set('if-match', 'If-Match', status === 412 ? '"apikit-stale"' : etag, 'ETag') ??
    set(
      'if-unmodified-since',
      'If-Unmodified-Since',
      status === 412 ? LONG_AGO : lastModified,
      'Last-Modified',
    )
  );
}
