import type { OpenApiDocument } from '../../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../../spec/operations.js';

/** One path template of the spec with the operations declared on it. */
export interface Route {
  template: string;
  /** Operations by upper-case method (OPTIONS included when the spec declares it). */
  operations: Map<string, SpecOperation>;
  /** The `Allow` header value: declared methods, HEAD wherever GET is, OPTIONS always. */
  allow: string;
  pattern: RegExp;
  paramNames: string[];
}

export interface RouteMatch {
  route: Route;
  /** Raw (still percent-encoded) path parameter values by name. */
  params: Record<string, string>;
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Strict, case-sensitive routing compiled from the spec's paths: `/users/` and `/USERS` do not
 * match, and a parameter matches one whole segment (validated later, so `/users/abc` reaches
 * the operation and becomes a 400 rather than a 404).
 *
 * @example
 * const table = createRouteTable(doc);
 * table.match('/users/7')?.params; // { id: '7' }
 */
export function createRouteTable(doc: OpenApiDocument): {
  routes: Route[];
  match(path: string): RouteMatch | undefined;
} {
  const byTemplate = new Map<string, Route>();
  for (const op of listOperations(doc)) {
    let route = byTemplate.get(op.path);
    if (!route) {
      const paramNames: string[] = [];
      const source = op.path
        .split('/')
        .map((segment) => {
          const m = /^\{([^}]+)\}$/.exec(segment);
          if (!m) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          paramNames.push(m[1] as string);
          return '([^/]+)';
        })
        .join('/');
      route = {
        template: op.path,
        operations: new Map(),
        allow: '',
        pattern: new RegExp(`^${source}$`),
        paramNames,
      };
      byTemplate.set(op.path, route);
    }
    route.operations.set(op.method.toUpperCase(), op);
  }
  for (const route of byTemplate.values()) {
    const methods = new Set([...route.operations.keys(), 'OPTIONS']);
    if (methods.has('GET')) methods.add('HEAD');
    route.allow = METHOD_ORDER.filter((m) => methods.has(m)).join(', ');
  }
  // Literal segments win over parameters (`/users/{id}/roles` vs a hypothetical `/users/me/roles`).
  const routes = [...byTemplate.values()].sort((a, b) => a.paramNames.length - b.paramNames.length);
  return {
    routes,
    match(path) {
      for (const route of routes) {
        const m = route.pattern.exec(path);
        if (!m) continue;
        const params: Record<string, string> = {};
        route.paramNames.forEach((name, i) => (params[name] = m[i + 1] as string));
        return { route, params };
      }
      return undefined;
    },
  };
}
