import { VARYING, type RecordedInteraction } from '../../spec/interactions/interaction-file.js';
import type { SpecOperation } from '../../spec/operations.js';
import type { Exchange } from '../http/target-client.js';
import type { RunContext } from '../run-context.js';
import { compareShapes } from './value-shape.js';

/** Headers of the mock's answer not judged: the transport's, or set per request. */
const UNJUDGED_HEADERS = new Set([
  'date',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

/** What the backend's answer departs from the one the frontend saw, and what was not judged. */
export interface AnswerJudgement {
  differences: string[];
  unjudged: string[];
  /** Headers and body fields compared. */
  headers: number;
}

/**
 * The backend's answer judged against the mock's (decision 0113): the same status, the
 * spec's schema for it, every header of the mock's answer present (the media type, the
 * `Location`'s route and the `Link` relations the same), every body field present with the
 * same JSON type (arrays by items), and a problem's `type` the same. Values of ids, dates and
 * validators are never compared; a `<varies>` the recording masked (decision 0112) is judged
 * by presence (a header) or presence and type (a body field: the recorder masks strings only,
 * so it stands for any string).
 */
export function judgeAnswer(
  ctx: RunContext,
  op: SpecOperation,
  interaction: RecordedInteraction,
  exchange: Exchange,
): AnswerJudgement {
  const recorded = interaction.response;
  const got = exchange.response;
  const differences: string[] = [];
  const unjudged: string[] = [];
  if (got.status !== recorded.status) {
    differences.push(`status: ${recorded.status} expected, ${got.status} came back`);
    return { differences, unjudged, headers: 0 };
  }
  for (const v of ctx.validator.validate(op.operationId, {
    method: exchange.request.method,
    status: got.status,
    headers: exchange.headers,
    body: got.body === '' ? null : got.body,
  }))
    differences.push(`the contract: ${v.message}`);
  // CORS headers answer a page's Origin: judged only where the recording sent one.
  const cors = interaction.request.headers['origin'] !== undefined;
  const names = Object.keys(recorded.headers).filter(
    (n) => !UNJUDGED_HEADERS.has(n) && (cors || !n.startsWith('access-control-')),
  );
  for (const name of names) {
    const value = exchange.headers.get(name);
    const problem =
      value === null ? 'missing' : headerDifference(ctx, name, recorded.headers[name] ?? '', value);
    if (problem) differences.push(`header ${name}: ${problem}`);
  }
  if (recorded.body !== undefined) {
    const body = parse(got.body);
    if (body === undefined) differences.push('body: the frontend read JSON, none came back');
    else {
      const shapes = compareShapes(recorded.body, body);
      differences.push(...shapes.differences.map((d) => `body ${d}`));
      unjudged.push(...shapes.unjudged.map((p) => `body ${p} (the backend's list was empty)`));
      const problemType = typeOfProblem(recorded.headers, recorded.body);
      if (
        problemType !== undefined &&
        typeOfProblem(exchange.response.headers, body) !== problemType
      )
        differences.push(
          `body type: the problem "${problemType}" expected, ${JSON.stringify(Reflect.get(body as object, 'type'))} came back`,
        );
    }
  }
  return { differences, unjudged, headers: names.length };
}

function headerDifference(
  ctx: RunContext,
  name: string,
  recorded: string,
  got: string,
): string | undefined {
  // A value of the moment (ETag, Last-Modified, X-Request-Id...): present is all it promises.
  if (recorded === VARYING) return undefined;
  if (name === 'content-type') {
    const media = (v: string) => v.split(';')[0]?.trim().toLowerCase();
    return media(recorded) === media(got)
      ? undefined
      : `${media(recorded)} expected, ${media(got)} came back`;
  }
  if (name === 'location' || name === 'content-location') {
    const server = ctx.spec.servers?.[0]?.url ?? '';
    return routeOf(recorded, server) === routeOf(got, server)
      ? undefined
      : `a URL of ${routeOf(recorded, server)} expected, ${got} came back`;
  }
  if (name === 'link') {
    const rels = (v: string) => new Set([...v.matchAll(/rel="?([^";,]+)"?/g)].map((m) => m[1]));
    const have = rels(got);
    const lacking = [...rels(recorded)].filter((r) => !have.has(r));
    return lacking.length ? `the relation(s) ${lacking.join(', ')} missing` : undefined;
  }
  return undefined;
}

/**
 * The route a URL names: its path after the API's server path, ids as `{}`
 * (`/api/v1/users/42` and `http://host/svc/api/v1/users/7` are both `/users/{}`).
 */
export function routeOf(url: string, serverUrl: string): string {
  let path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]+/i, '').split(/[?#]/)[0] ?? '';
  const server = serverUrl.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]+/i, '').replace(/\/$/, '');
  const at = server ? path.indexOf(`${server}/`) : -1;
  if (at >= 0) path = path.slice(at + server.length);
  return path
    .split('/')
    .map((s) => (/^\d+$|^[0-9a-f-]{36}$/i.test(s) ? '{}' : s))
    .join('/');
}

function typeOfProblem(headers: Record<string, string>, body: unknown): string | undefined {
  const contentType = headers['content-type'] ?? headers['Content-Type'] ?? '';
  if (!/problem\+json/i.test(contentType) || typeof body !== 'object' || body === null)
    return undefined;
  const type: unknown = Reflect.get(body, 'type');
  return typeof type === 'string' ? type : undefined;
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
