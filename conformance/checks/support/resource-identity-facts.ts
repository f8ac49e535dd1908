import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../../spec/operations.js';
import { properties, responseSchema, type Schema } from './stateful-support.js';

/**
 * What a description says about the identity of the resource a write answers, read from its
 * OpenAPI links (a link `GetUser: { id: $response.body#/id }` says that the body's `id` is the
 * `id` in the path of the resource's GET). Nothing here knows an API: every fact is a link,
 * a path template or a schema.
 */

/** A link parameter given by a top-level member of the response body. */
const BODY_MEMBER = /^\$response\.body#\/([^/]+)$/;
/** A link parameter given by a path parameter of the request. */
const REQUEST_PATH = /^\$request\.path\.(.+)$/;

/** How one path parameter of a linked operation is filled. */
export type ParameterSource = { member: string } | { requestParameter: string };

/** A link of a 2xx answer to another operation, with how each of its path parameters is filled. */
export interface ResolvedLinkFact {
  target: SpecOperation;
  parameters: Record<string, ParameterSource>;
}

/** The parameter names of a path template, in order (`/users/{id}` → `['id']`). */
export function templateNames(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
}

/**
 * Whether path parameter `name` of `op` names the same resource in `target`'s path: both
 * paths are alike up to and including `{name}` (`/users/{userId}/orders` and
 * `/users/{userId}/orders/{orderId}`), so a value of it is the same parent in both.
 */
export function sameParent(op: SpecOperation, target: SpecOperation, name: string): boolean {
  const at = op.path.indexOf(`{${name}}`);
  return at >= 0 && target.path.startsWith(op.path.slice(0, at + name.length + 2));
}

/**
 * The links of `op`'s answer `status` whose every path parameter is a body member or a path
 * parameter of the request: links given any other way (a constant, a header) say nothing here.
 */
export function linkFacts(
  all: readonly SpecOperation[],
  op: SpecOperation,
  status: number,
): ResolvedLinkFact[] {
  const links = (op.responses[String(status)]?.links ?? {}) as Record<string, OpenAPIV3.LinkObject>;
  return Object.values(links).flatMap((link) => {
    const target = all.find((o) => o.operationId === link.operationId);
    if (!target) return [];
    const given = link.parameters ?? {};
    const parameters: Record<string, ParameterSource> = {};
    for (const name of templateNames(target.path)) {
      const expression: unknown = given[name] ?? given[`path.${name}`];
      const source = typeof expression === 'string' ? sourceOf(expression) : undefined;
      if (!source) return [];
      parameters[name] = source;
    }
    return [{ target, parameters }];
  });
}

function sourceOf(expression: string): ParameterSource | undefined {
  const member = BODY_MEMBER.exec(expression)?.[1];
  if (member !== undefined) return { member: unpointer(member) };
  const requestParameter = REQUEST_PATH.exec(expression)?.[1];
  return requestParameter !== undefined ? { requestParameter } : undefined;
}

function unpointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The GET links of a create's 201 that read what it made: the one at the create's own path
 * plus one parameter (the single resource of the collection) when the answer links to it,
 * else every GET the answer links to by the body's members (a resource read at the top level).
 */
export function createdReaders(
  all: readonly SpecOperation[],
  op: SpecOperation,
): ResolvedLinkFact[] {
  const readers = linkFacts(all, op, 201).filter(
    (l) =>
      l.target.method === 'get' &&
      /\}$/.test(l.target.path) &&
      Object.values(l.parameters).some((s) => 'member' in s),
  );
  const own = readers.filter((l) =>
    new RegExp(`^${escape(op.path)}/\\{[^}/]+\\}$`).test(l.target.path),
  );
  return own.length > 0 ? own : readers;
}

/**
 * Members of a create's 201 body that name a parent of the new resource: a link of the
 * answer fills path parameter `parameter` of the create's own path with the body's `member`,
 * on an operation under the same parent (its path starts as the create's does up to that
 * parameter). The body's member is then the request's value of that parameter.
 */
export function parentMembers(
  all: readonly SpecOperation[],
  op: SpecOperation,
): { parameter: string; member: string }[] {
  const found = new Map<string, string>();
  for (const link of linkFacts(all, op, 201))
    for (const [parameter, source] of Object.entries(link.parameters)) {
      if ('member' in source && sameParent(op, link.target, parameter))
        found.set(parameter, source.member);
    }
  return [...found].map(([parameter, member]) => ({ parameter, member }));
}

const idFields = new WeakMap<SpecOperation, Map<number, string | undefined>>();

/**
 * The member of `op`'s answer `status` holding the id its path ends in (`/users/{id}`): the
 * member some link fills that last parameter from, in an answer of the same resource (the
 * same properties as `op`'s answer). Undefined when the path does not end in a parameter or
 * no link says.
 */
export function idMemberOf(
  all: readonly SpecOperation[],
  op: SpecOperation,
  status: number,
): string | undefined {
  const known = idFields.get(op) ?? new Map<number, string | undefined>();
  idFields.set(op, known);
  if (!known.has(status)) known.set(status, findIdMember(all, op, status));
  return known.get(status);
}

function findIdMember(
  all: readonly SpecOperation[],
  op: SpecOperation,
  status: number,
): string | undefined {
  const last = /\{([^}/]+)\}$/.exec(op.path)?.[1];
  const answer = propertyNames(responseSchema(op, status));
  if (last === undefined || answer === '') return undefined;
  const declared = answer.split(',');
  for (const source of all)
    for (const code of Object.keys(source.responses).filter((c) => /^2\d\d$/.test(c)))
      for (const link of linkFacts(all, source, Number(code))) {
        const given = link.target === op ? link.parameters[last] : undefined;
        if (
          given &&
          'member' in given &&
          declared.includes(given.member) &&
          propertyNames(responseSchema(source, code)) === answer
        )
          return given.member;
      }
  return undefined;
}

/** The sorted property names of an object schema: two answers of one resource share them. */
function propertyNames(schema: Schema | undefined): string {
  return Object.keys(properties(schema)).sort().join(',');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
