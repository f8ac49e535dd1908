import type { SpecOperation } from '../../../spec/operations.js';
import { isOpen } from '../../auth-session.js';
import { buildRequest } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckFailure, CheckRecorder, ScenarioCheck } from '../check.js';
import {
  describe,
  isObject,
  isSuccess,
  jsonBody,
  properties,
  requestSchema,
  responseSchema,
} from '../support/stateful-support.js';

/**
 * `refresh_rotation`: on its own session (login with the run's username and password), a
 * refresh gives a new pair; where the spec says refresh tokens are spent by use (rotation),
 * the token answered renews in turn (the chain holds before any reuse), and presenting the
 * first one again is 401; where it says reuse revokes the token's family, the newest token of
 * that family is then 401 too.
 */
export const refreshRotation: ScenarioCheck = {
  kind: 'scenario',
  name: 'refresh_rotation',
  description:
    'Refresh gives a new pair, whose refresh token renews in turn; a spent refresh token is 401 (rotation); after reuse the newest token is 401 too (family revocation)',
  async run(ctx, record) {
    const { refresh, login } = sessionOperations(ctx);
    if (!refresh || !login) {
      record.skip(refresh, 'the spec has no open login and refresh operations of the token shape');
      return;
    }
    if (!ctx.operations.includes(refresh)) return;
    const first = await ownSession(ctx, refresh, login, record);
    if (!first) return;
    const issued = [first];
    const use = async (refreshToken: string) => {
      const res = await ctx.call(refresh, { body: { refreshToken } }, 'none');
      const next = token(res);
      if (next) issued.push(next);
      return { res, next };
    };
    try {
      const renewed = await use(first);
      if (!renewed.next || !hasAccessToken(renewed.res))
        return record.fail(
          refresh,
          noNewPair(
            renewed.res,
            'refreshing with the refresh token login had just given did not give a new pair',
          ),
          renewed.res,
        );
      const rotates = rotation(refresh);
      if (!rotates)
        return record.pass(
          refresh,
          'refresh gave a new pair (the spec declares no rotation)',
          renewed.res,
        );
      if (renewed.next === first)
        return record.fail(
          refresh,
          {
            message: 'refresh returned the same refresh token, though the spec says tokens rotate',
            expected: 'a new refresh token',
            actual: 'the presented one again',
          },
          renewed.res,
        );
      // The token a rotation answers is the one the client holds now: the next refresh takes
      // it. A refresh applied twice (a retry, a replayed write) presents a spent token the
      // second time, which revokes the family of the very token the client was given.
      const chained = await use(renewed.next);
      if (!chained.next || !hasAccessToken(chained.res))
        return record.fail(
          refresh,
          noNewPair(
            chained.res,
            'the refresh token a rotation had just answered was refused by the next refresh, before any reuse',
          ),
          chained.res,
        );
      const refused = refresh.responses['401'] !== undefined ? [401] : undefined;
      const isRefusal = (e: Exchange) =>
        refused
          ? refused.includes(e.response.status)
          : e.response.status >= 400 && e.response.status < 500;
      const reuse = await use(first);
      if (!isRefusal(reuse.res))
        return record.fail(
          refresh,
          {
            message: 'a spent refresh token was accepted again',
            expected: refused ? '401' : 'a 4xx',
            actual: describe(reuse.res),
          },
          reuse.res,
        );
      if (!familyRevocation(refresh))
        return record.pass(
          refresh,
          `new pair, renewed in turn, then ${reuse.res.response.status} for the spent token`,
          reuse.res,
        );
      const newest = await use(chained.next);
      if (!isRefusal(newest.res))
        return record.fail(
          refresh,
          {
            message:
              'after a spent token was presented, the newest token of its family still worked, though the spec says reuse revokes the family',
            expected: refused ? '401' : 'a 4xx',
            actual: describe(newest.res),
          },
          newest.res,
        );
      record.pass(
        refresh,
        'new pair, renewed in turn; the spent token and then its whole family were refused',
        newest.res,
      );
    } finally {
      await logout(ctx, issued);
    }
  },
};

/** The open refresh and login operations of the token shape, where the spec has them. */
function sessionOperations(ctx: RunContext): { refresh?: SpecOperation; login?: SpecOperation } {
  const refresh = ctx.allOperations.find(
    (op) => isOpen(op) && takes(op, ['refreshToken']) && answers(op, 'accessToken'),
  );
  const login =
    ctx.auth.loginOperation ??
    ctx.allOperations.find(
      (op) => isOpen(op) && takes(op, ['username', 'password']) && answers(op, 'accessToken'),
    );
  return { ...(refresh ? { refresh } : {}), ...(login ? { login } : {}) };
}

/** A refresh that should have given a new pair did not: what came back instead. */
function noNewPair(res: Exchange, message: string): CheckFailure {
  return {
    message,
    expected: '2xx with accessToken and refreshToken',
    actual: `${describe(res)} ${res.response.body.slice(0, 200)}`,
  };
}

/**
 * A session of the check's own, started with the run's username and password: its refresh
 * token, or undefined when there is none (the check is then skipped, saying why).
 */
async function ownSession(
  ctx: RunContext,
  refresh: SpecOperation,
  login: SpecOperation,
  record: CheckRecorder,
): Promise<string | undefined> {
  const credentials = ctx.auth.credentials('user');
  if (!credentials) {
    record.skip(
      refresh,
      'no username and password were given, so no session of its own can be started',
    );
    return undefined;
  }
  // Sent as the run's own login is: its answer is judged like any (0129), and the report
  // never shows the password (the redactor holds it).
  const session = await ctx.client.send(buildRequest(login, { body: credentials }));
  const first = token(session);
  if (!first) {
    record.skip(refresh, `login did not give a refresh token: ${describe(session)}`);
    return undefined;
  }
  return first;
}

/** Revokes what the check was given (best effort), through an open logout taking refreshToken. */
async function logout(ctx: RunContext, tokens: string[]): Promise<void> {
  const op = ctx.allOperations.find(
    (o) =>
      o.method === 'post' && isOpen(o) && takes(o, ['refreshToken']) && !answers(o, 'accessToken'),
  );
  if (!op) return;
  for (const refreshToken of tokens)
    await ctx.client.send(buildRequest(op, { body: { refreshToken } })).catch(() => undefined);
}

function describeText(op: SpecOperation): string {
  return `${op.summary ?? ''} ${op.operation.description ?? ''}`;
}

function rotation(op: SpecOperation): boolean {
  const texts = [
    describeText(op),
    properties(requestSchema(op)).refreshToken?.description ?? '',
    properties(responseSchema(op, 200)).refreshToken?.description ?? '',
  ];
  return /rotat|spent|usable once|single[- ]use|one[- ]time|only once/i.test(texts.join(' '));
}

function familyRevocation(op: SpecOperation): boolean {
  return /reuse|revok/i.test(describeText(op));
}

function token(exchange: Exchange): string | undefined {
  const body = jsonBody(exchange);
  return isSuccess(exchange.response.status) &&
    isObject(body) &&
    typeof body.refreshToken === 'string'
    ? body.refreshToken
    : undefined;
}

function hasAccessToken(exchange: Exchange): boolean {
  const body = jsonBody(exchange);
  return isObject(body) && typeof body.accessToken === 'string' && body.accessToken.length > 0;
}

function takes(op: SpecOperation, names: string[]): boolean {
  const props = properties(requestSchema(op));
  return names.every((n) => props[n] !== undefined);
}

function answers(op: SpecOperation, property: string): boolean {
  return Object.keys(op.responses).some(
    (status) =>
      status.startsWith('2') && properties(responseSchema(op, status))[property] !== undefined,
  );
}
