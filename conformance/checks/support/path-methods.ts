import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import { allowedMethods } from './probe-support.js';

/**
 * What a list of a path's methods (`Allow`, a preflight's `Access-Control-Allow-Methods`) may
 * name and must name, upper-case.
 */
export interface MethodList {
  may: Set<string>;
  must: Set<string>;
}

/**
 * The methods of `path` as its `Allow` lists them (RFC 9110 10.2.1): it may name every method
 * the spec declares there, HEAD where GET is, and OPTIONS; it must name those of the run's
 * operations (one out of scope or missing on the target may be absent, decision 0096), HEAD
 * with their GET, and OPTIONS where the spec declares it or the target just answered it.
 */
export function pathMethods(ctx: RunContext, path: string, answersOptions: boolean): MethodList {
  const declared = methodsAt(ctx.allOperations, path);
  const judged = methodsAt(ctx.operations, path);
  const may = new Set([...declared, 'OPTIONS']);
  if (declared.has('GET')) may.add('HEAD');
  const must = new Set(judged);
  if (judged.has('GET')) must.add('HEAD');
  if (declared.has('OPTIONS') || answersOptions) must.add('OPTIONS');
  return { may, must };
}

function methodsAt(operations: SpecOperation[], path: string): Set<string> {
  return new Set(operations.filter((o) => o.path === path).map((o) => o.method.toUpperCase()));
}

/**
 * How a header listing methods strays from `expected`, in words (`missing PATCH; not declared
 * TRACE`), or undefined when it lists a set between what it must and what it may name. Methods
 * compare case-insensitively, in any order.
 */
export function methodListProblem(value: string, expected: MethodList): string | undefined {
  const listed = allowedMethods(value);
  const missing = inHttpOrder(expected.must).filter((m) => !listed.has(m));
  const extra = [...listed].filter((m) => !expected.may.has(m));
  const said = [
    missing.length ? `missing ${missing.join(', ')}` : '',
    extra.length ? `not declared ${extra.join(', ')}` : '',
  ].filter(Boolean);
  return said.length ? said.join('; ') : undefined;
}

/** The methods a list should name, in the order HTTP lists them, for `expected` messages. */
export function methodListText(expected: MethodList): string {
  const optional = inHttpOrder(expected.may).filter((m) => !expected.must.has(m));
  const named = inHttpOrder(expected.must).join(', ');
  return optional.length ? `${named} (${optional.join(', ')} may be listed too)` : named;
}

const HTTP_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function inHttpOrder(methods: Iterable<string>): string[] {
  const rank = (m: string) => (HTTP_ORDER.includes(m) ? HTTP_ORDER.indexOf(m) : HTTP_ORDER.length);
  return [...methods].sort((a, b) => rank(a) - rank(b));
}

/** A request header of an exchange, by name in any letter case. */
export function requestHeader(exchange: Exchange, name: string): string | undefined {
  const key = Object.keys(exchange.request.headers).find(
    (k) => k.toLowerCase() === name.toLowerCase(),
  );
  return key === undefined ? undefined : exchange.request.headers[key];
}

/**
 * True when the request of `exchange` addresses `path` (a template) below the base: an
 * exchange attributed to an operation of another path (a probe's stray request) is not judged
 * by that path's methods.
 */
export function addressesPath(exchange: Exchange, path: string): boolean {
  const pattern = path
    .split(/(\{[^}]+\})/)
    .map((part) =>
      /^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`${pattern}$`).test(new URL(exchange.request.url).pathname);
}
