import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/operations.js';
import type { OperationCall } from '../http/build-request.js';

/**
 * Rules that are conventions of a particular API rather than of OpenAPI (our contract holds
 * all three). A spec declares the ones it holds in its root `x-apikit-validation` object;
 * cases that depend on an undeclared one are not judged, so other APIs are not held to them.
 */
export type ValidationConvention =
  | 'unknown-query-parameters' // unknown query parameters are rejected
  | 'plain-decimal-integers' // `1e3`, `+5`, `05`, `20.0` are not integers in a query
  | 'lone-surrogates'; // strings with a lone UTF-16 surrogate are rejected

/** One request that breaks exactly one rule of the spec, and where. */
export interface NegativeCase {
  /** Set when the case breaks a convention rather than the schema (see ValidationConvention). */
  convention?: ValidationConvention;
  /** In words, e.g. "name longer than maxLength 100". */
  description: string;
  /** JSON Pointer fragment of the broken value: `#/name`, `#`, `#/query/size`, `#/path/id`. */
  pointer: string;
  /**
   * Every place the case breaks by the spec's schema (JSON Pointer fragments), where it is
   * known: `[pointer]` when it breaks nothing else; more when its one change breaks a rule of
   * a parent too (an unknown property of an object with `maxProperties: 0`: a 400 names both),
   * or the schema's `oneOf` branches each object. Absent: only `pointer` is known.
   */
  places?: string[];
  /**
   * Set when the schema chooses among branches (`oneOf`, `anyOf`) at a broken place: `places`
   * then holds every branch's complaints, and a 400 may name any one of them.
   */
  placesBranching?: true;
  /** The parts of the call that make it negative (body, rawBody, query, rawQuery, path). */
  call: OperationCall;
}

/**
 * Derives request data from an operation's schemas, reproducibly from the run's seed.
 * Positive data satisfies every constraint (the spec's examples first, then generated values
 * including boundaries such as minLength, maxLength, minimum, maximum); negative data breaks
 * one constraint at a time.
 */
export interface CaseGenerator {
  /** Valid request bodies: examples first, then generated, `count` at most (none if no body). */
  positiveBodies(op: SpecOperation, count: number): unknown[];
  /** Valid query parameter sets: defaults, examples, boundaries; `count` at most. */
  positiveQueries(op: SpecOperation, count: number): Record<string, unknown>[];
  /** A valid value for a schema; strings with `format: email` are unique per call. */
  value(schema: OpenAPIV3.SchemaObject): unknown;
  /** One case per violated constraint of the body, query and path parameters. */
  negativeCases(op: SpecOperation): NegativeCase[];
}
