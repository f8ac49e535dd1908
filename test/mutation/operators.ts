/**
 * The mutation operators: each finds its targets in one exchange (a header, a part of a
 * structured header, a JSON member, a list, a status, a write) and applies itself to one. They
 * know HTTP and JSON, and of the spec only the statuses an operation documents.
 */
import type {
  FaultContext,
  ProxyRequest,
  ProxyResponse,
} from '../support/fault-injection/fault-proxy.js';
import {
  allPaths,
  alterPart,
  arrayPaths,
  dropPart,
  get,
  headerParts,
  leafPaths,
  memberPaths,
  objectPaths,
  otherHeaderValue,
  otherType,
  partName,
  pathName,
  sameTypeOther,
  withValue,
  type JsonPath,
} from './value-edits.js';

/** One exchange of the run: the request as the runner sent it and the answer it got. */
export interface Exchange {
  operationId: string;
  /** The how-many-th exchange of its operation in the run, from 0. */
  index: number;
  req: ProxyRequest;
  res: ProxyResponse;
}

/** What an operator may know of the operation besides the exchange: its documented statuses. */
export interface OperationFacts {
  statuses: number[];
}

/** A target in one exchange: `key` says where (exactly), `label` is what survivors are classified by. */
export interface Target {
  key: string;
  label: string;
}

export interface ResponseOperator {
  name: string;
  phase: 'response';
  targets(ex: Exchange, facts: OperationFacts): Target[];
  /** The answer mutated at `key`, or undefined when the key is not there. */
  apply(res: ProxyResponse, key: string): ProxyResponse | undefined;
}

export interface RequestOperator {
  name: string;
  phase: 'request';
  targets(ex: Exchange, facts: OperationFacts): Target[];
  /**
   * Handles the request instead of the proxy: `control` is the answer the same exchange got in
   * the unmutated run. Undefined when the mutation cannot apply (the proxy forwards as usual).
   */
  apply(
    req: ProxyRequest,
    key: string,
    ctx: FaultContext,
    control: ProxyResponse,
  ): Promise<ProxyResponse | undefined>;
}

export type Operator = ResponseOperator | RequestOperator;

/** Headers no mutation touches: the transport's own. */
const TRANSPORT = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const headerNames = (res: ProxyResponse) =>
  Object.keys(res.headers).filter((h) => !TRANSPORT.has(h.toLowerCase()));

const isJsonType = (h: Record<string, string>) =>
  /^application\/([\w.+-]*\+)?json\b/i.test(h['content-type'] ?? '');

function jsonOf(body: string, headers: Record<string, string>): unknown {
  if (!isJsonType(headers) || body === '') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

const keyOf = (path: JsonPath) => JSON.stringify(path);

function withHeaders(res: ProxyResponse, headers: Record<string, string>): ProxyResponse {
  return { ...res, headers };
}

/** A response operator over the JSON body: targets are paths, the edit makes the new body. */
function bodyOperator(
  name: string,
  paths: (body: unknown) => JsonPath[],
  edit: (body: unknown, path: JsonPath) => unknown,
  problemOnly = false,
): ResponseOperator {
  const body = (res: ProxyResponse) =>
    problemOnly && !/problem\+json/i.test(res.headers['content-type'] ?? '')
      ? undefined
      : jsonOf(res.body, res.headers);
  return {
    name,
    phase: 'response',
    targets: (ex) => {
      const json = body(ex.res);
      return json === undefined
        ? []
        : paths(json).map((p) => ({ key: keyOf(p), label: pathName(p) }));
    },
    apply(res, key) {
      const json = body(res);
      if (json === undefined) return undefined;
      const path = JSON.parse(key) as JsonPath;
      if (!paths(json).some((p) => keyOf(p) === key)) return undefined;
      const next = edit(json, path);
      return next === undefined ? undefined : { ...res, body: JSON.stringify(next) };
    },
  };
}

const PROBLEM_MEMBERS = new Set(['type', 'title', 'status', 'detail', 'instance']);

export const OPERATORS: Operator[] = [
  {
    name: 'header-drop',
    phase: 'response',
    targets: (ex) => headerNames(ex.res).map((h) => ({ key: h, label: h })),
    apply(res, key) {
      if (!(key in res.headers)) return undefined;
      const { [key]: _dropped, ...rest } = res.headers;
      return withHeaders(res, rest);
    },
  },
  {
    name: 'header-alter',
    phase: 'response',
    targets: (ex) => headerNames(ex.res).map((h) => ({ key: h, label: h })),
    apply(res, key) {
      const value = res.headers[key];
      if (value === undefined) return undefined;
      return withHeaders(res, { ...res.headers, [key]: otherHeaderValue(value) });
    },
  },
  ...(['drop', 'alter'] as const).map((how): ResponseOperator => ({
    name: `header-param-${how}`,
    phase: 'response',
    targets: (ex) =>
      headerNames(ex.res).flatMap((h) => {
        // An HTTP date holds a comma but is one value.
        if (/GMT$/.test(ex.res.headers[h]!)) return [];
        const parts = headerParts(ex.res.headers[h]!);
        if (parts.length < 2) return [];
        return parts.map((p, i) => ({ key: `${h}#${i}`, label: `${h}:${partName(p.text)}` }));
      }),
    apply(res, key) {
      const [h, i] = key.split('#') as [string, string];
      const value = res.headers[h];
      if (value === undefined || headerParts(value).length <= Number(i)) return undefined;
      const next = how === 'drop' ? dropPart(value, Number(i)) : alterPart(value, Number(i));
      return withHeaders(res, { ...res.headers, [h]: next });
    },
  })),
  bodyOperator('body-alter', leafPaths, (b, p) => withValue(b, p, sameTypeOther(get(b, p)))),
  bodyOperator('body-retype', memberPaths, (b, p) => withValue(b, p, otherType(get(b, p)))),
  bodyOperator('body-drop', memberPaths, (b, p) => withValue(b, p, undefined)),
  bodyOperator('body-add', objectPaths, (b, p) =>
    withValue(b, p, { ...(get(b, p) as object), mutantExtra: 'x' }),
  ),
  bodyOperator(
    'list-reorder',
    (b) =>
      arrayPaths(b, 2).filter((p) => {
        const list = get(b, p) as unknown[];
        return new Set(list.map((x) => JSON.stringify(x))).size > 1;
      }),
    (b, p) => withValue(b, p, [...(get(b, p) as unknown[])].reverse()),
  ),
  bodyOperator(
    'list-truncate',
    (b) => arrayPaths(b, 1),
    (b, p) => withValue(b, p, (get(b, p) as unknown[]).slice(0, -1)),
  ),
  bodyOperator(
    'list-duplicate',
    (b) => arrayPaths(b, 1),
    (b, p) => {
      const list = get(b, p) as unknown[];
      return withValue(b, p, [...list, list[list.length - 1]]);
    },
  ),
  bodyOperator(
    'problem-alter',
    (b) => leafPaths(b).filter((p) => p.length === 1 && PROBLEM_MEMBERS.has(String(p[0]))),
    (b, p) => withValue(b, p, sameTypeOther(get(b, p))),
    true,
  ),
  {
    name: 'status-swap',
    phase: 'response',
    targets: (ex, facts) =>
      facts.statuses
        .filter((s) => s !== ex.res.status)
        .map((s) => ({ key: `${ex.res.status}>${s}`, label: `${ex.res.status}->${s}` })),
    apply(res, key) {
      const [from, to] = key.split('>').map(Number) as [number, number];
      return res.status === from ? { ...res, status: to } : undefined;
    },
  },
  {
    name: 'skip-write',
    phase: 'request',
    targets: (ex) => (UNSAFE.has(ex.req.method) && ok(ex.res) ? [{ key: '-', label: '-' }] : []),
    // Answered as the same request was answered in the unmutated run; nothing is forwarded.
    apply: async (req, _key, _ctx, control) =>
      UNSAFE.has(req.method) && ok(control) ? control : undefined,
  },
  {
    name: 'write-twice',
    phase: 'request',
    targets: (ex) => (UNSAFE.has(ex.req.method) && ok(ex.res) ? [{ key: '-', label: '-' }] : []),
    async apply(req, _key, ctx) {
      if (!UNSAFE.has(req.method)) return undefined;
      const first = await ctx.forward(req);
      if (ok(first)) await ctx.forward(req);
      return first;
    },
  },
  {
    name: 'write-different',
    phase: 'request',
    targets: (ex) => {
      if (!UNSAFE.has(ex.req.method) || !ok(ex.res)) return [];
      const json = jsonOf(ex.req.body, ex.req.headers);
      return json === undefined
        ? []
        : leafPaths(json).map((p) => ({ key: keyOf(p), label: pathName(p) }));
    },
    // The write stores another value than asked, and the answer claims the asked one.
    async apply(req, key, ctx) {
      const json = jsonOf(req.body, req.headers);
      const path = JSON.parse(key) as JsonPath;
      const asked = json === undefined ? undefined : get(json, path);
      if (asked === undefined || asked === null || typeof asked === 'object') return undefined;
      const stored = sameTypeOther(asked);
      const res = await ctx.forward({
        ...req,
        body: JSON.stringify(withValue(json, path, stored)),
      });
      if (!ok(res)) return undefined; // the other value was refused: nothing was written
      const answer = jsonOf(res.body, res.headers);
      if (answer === undefined) return res;
      // The answer's members that echo the stored value say the asked one instead.
      let claimed: unknown = answer;
      for (const p of allPaths(answer))
        if (pathName(p).endsWith(String(path[path.length - 1])) && get(answer, p) === stored)
          claimed = withValue(claimed, p, asked);
      return { ...res, body: JSON.stringify(claimed) };
    },
  },
];

function ok(res: ProxyResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

export const OPERATOR_NAMES = OPERATORS.map((o) => o.name);
