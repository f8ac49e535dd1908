import { isDeepStrictEqual } from 'node:util';
import type { SpecOperation } from '../../spec/operations.js';
import type { Exchange } from '../http/target-client.js';
import {
  differences,
  flag,
  isObject,
  jsonBody,
  properties,
  requestSchema,
  responseSchema,
  type Schema,
} from '../checks/support/stateful-support.js';

/** What a read-back of a write showed wrong; undefined when it showed the write as answered. */
export interface ReadBackMismatch {
  message: string;
  expected: string;
}

/** The statuses that say a resource is not there: what a DELETE's read-back must answer. */
const GONE = new Set([404, 410]);

/**
 * The read-back of a DELETE answered 2xx: the resource is gone (404 or 410). Any other refusal
 * (401, 403, 429, 5xx) says nothing about the resource and is inconclusive (undefined).
 */
export function deletedVerdict(readBack: Exchange): ReadBackMismatch | undefined {
  if (readBack.response.status !== 200) return undefined;
  return {
    message: 'a DELETE answered as done, but the resource is still there when read back',
    expected: 'GET answers 404 or 410 after the DELETE',
  };
}

/**
 * Whether the read-back is a verdict at all: 200 shows the resource, 404/410 says it is gone;
 * anything else (a refusal of the credential, a rate limit, a fault) says nothing about it.
 */
export function conclusive(readBack: Exchange): boolean {
  return readBack.response.status === 200 || GONE.has(readBack.response.status);
}

/**
 * The read-back of a PUT, PATCH or creating POST answered 2xx: the resource is there and holds
 * what the write said. When the write answered a representation of the schema the GET answers,
 * the two bodies are equal (nothing was written in between, so nothing may differ); otherwise
 * each member the request sent shows the value sent.
 */
export function storedVerdict(
  write: SpecOperation,
  written: Exchange,
  sent: unknown,
  reader: SpecOperation,
  readBack: Exchange,
): ReadBackMismatch | undefined {
  if (GONE.has(readBack.response.status))
    return {
      message: `a write answered ${written.response.status}, but the resource is not there when read back`,
      expected: 'GET answers 200 with what the write stored',
    };
  const read = jsonBody(readBack);
  const answered = jsonBody(written);
  if (answered !== undefined && representsTheSame(write, written, reader)) {
    const differing = differences(answered, read);
    if (differing.length === 0) return undefined;
    return {
      message: `the write's answer and a read right after it differ in ${differing.join(', ')}: the write did not store what it answered`,
      expected: 'GET answers the representation the write answered',
    };
  }
  const differing = sentMembersDiffering(write, reader, sent, read, written);
  if (differing.length === 0) return undefined;
  return {
    message: `members sent are not stored as sent: ${differing.join(', ')}`,
    expected: 'GET shows each member the write sent with the value sent',
  };
}

/**
 * The write's answer is a representation of what the GET reads: the same schema documented for
 * both, and the write asked for no variant of it (a query such as `expand`).
 */
function representsTheSame(write: SpecOperation, written: Exchange, reader: SpecOperation) {
  const answered = responseSchema(write, written.response.status);
  const read = responseSchema(reader, 200);
  if (!answered || !read) return false;
  return !new URL(written.request.url).search && isDeepStrictEqual(answered, read);
}

/**
 * The members of the request body that the read-back shows with another value: only members
 * both schemas declare, neither readOnly (ignored on writes) nor writeOnly (never read). A
 * merge-patch null removes the member; a merge-patch object merges, so it is left out.
 */
export function sentMembersDiffering(
  write: SpecOperation,
  reader: SpecOperation,
  sent: unknown,
  read: unknown,
  written: Exchange,
): string[] {
  if (!isObject(sent) || !isObject(read)) return [];
  const requestProps = properties(requestSchema(write));
  const readProps = properties(responseSchema(reader, 200));
  const mergePatch = /merge-patch/i.test(headerOf(written.request.headers, 'content-type'));
  return Object.entries(sent)
    .filter(([name]) => comparable(requestProps[name], readProps[name]))
    .filter(([name, value]) => {
      if (mergePatch && value === null) return read[name] !== undefined && read[name] !== null;
      if (mergePatch && isObject(value)) return false;
      return !isDeepStrictEqual(read[name], value);
    })
    .map(
      ([name, value]) =>
        `${name} sent ${JSON.stringify(value)}, read ${JSON.stringify(read[name])}`,
    );
}

function comparable(sent: Schema | undefined, read: Schema | undefined): boolean {
  if (!sent || !read) return false;
  const writeOnly = (s: Schema) => s.writeOnly === true;
  return !flag(sent, 'readOnly') && !flag(read, 'readOnly') && !writeOnly(sent) && !writeOnly(read);
}

function headerOf(headers: Record<string, string>, name: string): string {
  return Object.entries(headers).find(([n]) => n.toLowerCase() === name)?.[1] ?? '';
}
