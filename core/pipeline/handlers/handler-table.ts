import type { operations, paths } from '../../../spec/openapi-types.js';
import type { OperationHandler, OperationInput } from './operation-handler.js';

/** True when A and B are the same type (not merely assignable one way). */
type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Whether some path of the spec declares operation `Op` as its OPTIONS. */
type IsOptions<Op> = true extends {
  [P in keyof paths]: Same<paths[P]['options'], Op>;
}[keyof paths]
  ? true
  : false;

/**
 * The operationIds a handler answers: every operation of the spec but the OPTIONS ones, which
 * the pipeline answers itself from the route (Allow, CORS preflight). Derived from `paths`, so
 * no naming convention is relied on.
 */
export type HandledOperationId = {
  [K in keyof operations]: IsOptions<operations[K]> extends true ? never : K;
}[keyof operations];

/** An absent parameter location (`query?: never`) becomes an empty record, not `never`. */
type Located<T> = [NonNullable<T>] extends [never] ? Record<string, never> : NonNullable<T>;

/** The body of any of the operation's media types; undefined too when the body is optional. */
type BodyOf<Op> = Op extends { requestBody: { content: infer C } }
  ? C[keyof C]
  : Op extends { requestBody?: { content: infer C } }
    ? C[keyof C] | undefined
    : undefined;

/**
 * What the handler of operation `K` gets: path and query parameters and the body typed from
 * the spec's generated `operations`. The pipeline validated them against that same spec, so
 * the types hold at run time. Query parameters with a schema default stay optional here (the
 * generated types do not carry defaults); `filled` in operation-handler.ts reads them.
 */
export type OperationInputOf<K extends HandledOperationId> = Omit<
  OperationInput,
  'path' | 'query' | 'body'
> & {
  path: Located<operations[K]['parameters']['path']>;
  query: Located<operations[K]['parameters']['query']>;
  body: BodyOf<operations[K]>;
};

/**
 * One handler per operation of the spec, each typed from it: a missing handler, an unknown
 * operationId or a body used as the wrong type does not compile.
 */
export type HandlerTable = {
  [K in HandledOperationId]: OperationHandler<OperationInputOf<K>>;
};

/** The handlers of one resource group (a part of the table); the full table is checked whole. */
export type HandlerGroup = Partial<HandlerTable>;
