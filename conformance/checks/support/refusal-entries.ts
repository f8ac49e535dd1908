import type { OpenAPIV3 } from 'openapi-types';
import { declaredHttp } from '../../../spec/http-extensions.js';
import type { NegativeCase } from '../../generate/case-generator.js';
import type { Exchange } from '../../http/target-client.js';
import type { CheckFailure } from '../check.js';
import { describeResponse, parseJson } from './probe-support.js';

/**
 * What a negative request broke, as the check that built it knows: the places (JSON Pointer
 * fragments: `#/name`, `#/query/size`), one violated constraint each.
 */
export interface KnownViolations {
  /** The request in words, for messages: "name longer than maxLength 100". */
  what: string;
  /** The distinct places broken; a 400 names each with an entry of `errors`. */
  pointers: string[];
  /**
   * Where the request breaks more places than it meant to and the 400 may name any of them:
   * at least one entry names one of these (`pointers` is then empty).
   */
  someOf?: string[];
  /**
   * True when the request breaks nothing but these places (`pointers` and `someOf`), so every
   * entry of the 400 names one of them.
   */
  only: boolean;
}

/**
 * What a generated negative case is known to break: its one place when it breaks nothing
 * else (or nothing else is known); every place the schema names when its one change breaks a
 * parent's rule too ("one entry per violated constraint"); any one of them where the schema
 * chooses among branches, whose complaints a validator may report in its own way.
 */
export function violationsOfCase(testCase: NegativeCase): KnownViolations {
  const what = `${testCase.pointer} (${testCase.description})`;
  const places = testCase.places ?? [testCase.pointer];
  if (places.length === 1 && places[0] === testCase.pointer)
    return { what, pointers: places, only: true };
  const all = [...new Set([testCase.pointer, ...places])];
  return testCase.placesBranching
    ? { what, pointers: [], someOf: all, only: true }
    : { what, pointers: places, someOf: all, only: true };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * An entry's pointer names `place`: the same text, or, where the place is longer than the
 * declared bound of an entry's text, that text cut and ending in `…` (the contract's "a
 * pointer so cut names a property by the start of its name").
 */
function names(pointer: unknown, place: string, maxLength: number | undefined): boolean {
  if (pointer === place) return true;
  if (typeof pointer !== 'string' || maxLength === undefined) return false;
  if (Array.from(place).length <= maxLength || !pointer.endsWith('…')) return false;
  return place.startsWith(pointer.slice(0, -1));
}

/** The entries of a 400's `errors` and the violations it says it left out. */
function entriesOf(exchange: Exchange, omittedCount: string | undefined) {
  const body = parseJson(exchange.response.body);
  const errors = isObject(body) && Array.isArray(body.errors) ? (body.errors as unknown[]) : [];
  const omitted = isObject(body) && omittedCount ? body[omittedCount] : undefined;
  return {
    listed: isObject(body) && Array.isArray(body.errors),
    pointers: errors.map((e) => (isObject(e) ? e.pointer : undefined)),
    omitted: typeof omitted === 'number' ? omitted : 0,
  };
}

/**
 * The faults of the answer to a request the spec refuses: any 2xx (whatever else may answer
 * first, such as 401, 404 or 409 by the declared order of checks, a 2xx is never right), and,
 * where the spec declares `x-apikit-http.listEveryViolation`, a 400 whose `errors` miss a
 * broken place, count fewer entries than places broken (up to `errorsLimit.maxItems`), or,
 * for a request that breaks nothing else, name a place that was not broken.
 */
export function refusalFaults(
  spec: OpenAPIV3.Document,
  exchange: Exchange,
  known: KnownViolations,
): CheckFailure[] {
  const status = exchange.response.status;
  if (is2xx(status))
    return [
      {
        message: `${known.what} was accepted with ${status}`,
        expected: 'a 4xx refusing it',
        actual: describeResponse(exchange),
      },
    ];
  const http = declaredHttp(spec);
  if (status !== 400 || !http.listEveryViolation) return [];
  const maxItems = http.errorsLimit?.maxItems ?? Infinity;
  const maxLength = http.errorsLimit?.maxLength;
  const entries = entriesOf(exchange, http.errorsLimit?.omittedCount);
  const named = (place: string) => entries.pointers.some((p) => names(p, place, maxLength));
  const shown =
    entries.pointers
      .slice(0, 5)
      .map((p) => JSON.stringify(p))
      .join(', ') + (entries.pointers.length > 5 ? ', …' : '') || 'none';
  if (!entries.listed)
    return [
      {
        message: `the 400 to ${known.what} has no errors list`,
        actual: describeResponse(exchange),
      },
    ];
  const faults: CheckFailure[] = [];
  const counted = entries.pointers.length + entries.omitted;
  const missing = known.pointers.filter((p) => !named(p));
  // Over the bound only the first places are listed: the rest are counted, not named.
  if (known.pointers.length > maxItems ? counted < known.pointers.length : missing.length > 0)
    faults.push({
      message: `the 400 to ${known.what} lists ${entries.pointers.length} entr${entries.pointers.length === 1 ? 'y' : 'ies'} for ${known.pointers.length} violated constraint(s)${missing.length && known.pointers.length <= maxItems ? `, none at ${missing.join(', ')}` : ''}`,
      expected: `an entry pointing at each of ${known.pointers.slice(0, 5).join(', ')}${known.pointers.length > 5 ? ', …' : ''}`,
      actual: `pointers ${shown}`,
    });
  const someOf = known.someOf ?? [];
  if (someOf.length && !someOf.some(named))
    faults.push({
      message: `the 400 to ${known.what} names none of the places it breaks`,
      expected: `an entry pointing at one of ${someOf.join(', ')}`,
      actual: `pointers ${shown}`,
    });
  const allowed = [...known.pointers, ...someOf];
  const stray = known.only
    ? entries.pointers.filter((p) => !allowed.some((place) => names(p, place, maxLength)))
    : [];
  if (stray.length)
    faults.push({
      message: `the 400 to ${known.what} points at ${stray.map((p) => JSON.stringify(p)).join(', ')}, which the request did not break`,
      expected: `entries pointing only at ${allowed.join(', ')}`,
      actual: `pointers ${shown}`,
    });
  return faults;
}
