/**
 * What the harness reads of the spec: which operation an exchange belongs to (method and path
 * template under the server's base path), the statuses each documents, and the narrowing of a
 * run that targets one operation: it, the writes that make what it needs (the producers whose
 * links lead to it, transitively) and, for a write, the reads its links lead to on its path.
 */
import type { OpenApiDocument } from '../../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../../spec/operations.js';
import type { ProxyRequest } from '../support/fault-injection/fault-proxy.js';

export interface SpecIndex {
  operations: SpecOperation[];
  operationOf(req: ProxyRequest): string | undefined;
  statusesOf(operationId: string): number[];
  narrowing(operationId: string): string[];
}

export function indexSpec(doc: OpenApiDocument): SpecIndex {
  const operations = listOperations(doc);
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const base = new URL(
    (doc.servers?.[0]?.url ?? '/').replace(/\{[^}]+\}/g, ''),
    'http://x',
  ).pathname.replace(/\/$/, '');
  const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  // Literal segments before templated ones: `/users/me` before `/users/{id}`.
  const routes = operations
    .map((op) => ({
      op,
      params: (op.path.match(/\{/g) ?? []).length,
      re: new RegExp(
        `^${escape(base)}${op.path
          .split(/(\{[^}]+\})/)
          .map((s) => (s.startsWith('{') ? '[^/]+' : escape(s)))
          .join('')}/?$`,
      ),
    }))
    .sort((a, b) => a.params - b.params);

  const linksOf = (op: SpecOperation): string[] =>
    Object.values(op.responses).flatMap((r) =>
      Object.values(r.links ?? {}).flatMap((l) =>
        'operationId' in l && l.operationId ? [l.operationId] : [],
      ),
    );
  const writes = operations.filter((op) => ['post', 'put'].includes(op.method));

  return {
    operations,
    operationOf(req) {
      const path = new URL(req.path, 'http://x').pathname;
      const method = req.method.toLowerCase();
      const matching = routes.filter((r) => r.re.test(path));
      const exact = matching.find((r) => r.op.method === method);
      // HEAD is judged with the GET it mirrors, unless the spec declares it apart.
      const head = method === 'head' ? matching.find((r) => r.op.method === 'get') : undefined;
      return (exact ?? head)?.op.operationId;
    },
    statusesOf: (id) =>
      Object.keys(byId.get(id)?.responses ?? {})
        .map(Number)
        .filter((s) => Number.isInteger(s)),
    narrowing(id) {
      const target = byId.get(id);
      if (!target) return [id];
      const include = new Set([id]);
      // The producers of what the operation needs, and theirs, a few levels up.
      let frontier = [id];
      for (let depth = 0; depth < 3 && frontier.length > 0; depth++) {
        const next: string[] = [];
        for (const want of frontier)
          for (const p of writes)
            if (!include.has(p.operationId) && linksOf(p).includes(want)) {
              include.add(p.operationId);
              next.push(p.operationId);
            }
        frontier = next;
      }
      // A write is read back by the GETs its links lead to on its own path (or one below).
      if (target.method !== 'get')
        for (const linked of linksOf(target)) {
          const op = byId.get(linked);
          if (op?.method === 'get' && nextTo(op.path, target.path)) include.add(linked);
        }
      // A creation is read back by the collection it adds to too: the GET of its own path.
      if (target.method === 'post')
        for (const op of operations)
          if (op.method === 'get' && op.path === target.path) include.add(op.operationId);
      // OPTIONS lists the path's methods, of the operations in the run's scope (0096, 0121): with
      // all of them in the narrowing, a method dropped from Allow is a break, not the scope.
      if (target.method === 'options')
        for (const op of operations) if (op.path === target.path) include.add(op.operationId);
      return [...include].sort();
    },
  };
}

/** The same path, or one segment below or above it (`/users/{id}` and `/users/{id}/activate`). */
function nextTo(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short === long) return true;
  return long.startsWith(`${short}/`) && !long.slice(short.length + 1).includes('/');
}
