import { isDeepStrictEqual } from 'node:util';
import type { Exchange } from '../../http/target-client.js';
import { isObject, jsonBody } from './stateful-support.js';

/** An answer that embeds something `reference` embedded otherwise. */
export interface EmbeddedDisagreement {
  message: string;
  res: Exchange;
}

/**
 * Reads of one resource with nothing written in between embed the same thing under each name
 * they embed: a list as the same items (a multiset: each as often, order aside), anything else
 * as the same value. So an answer embedding its items along with another expansion (or in the
 * other form of the parameter) holds every item, once, as the answer embedding them alone does.
 * The first answer embedding a name is the reference for it.
 */
export function embeddedDisagreements(
  answers: Exchange[],
  names: string[],
): EmbeddedDisagreement[] {
  const problems: EmbeddedDisagreement[] = [];
  for (const name of names) {
    const embedding = answers
      .map((res) => ({ res, value: embeddedValue(res, name) }))
      .filter((a) => a.value !== undefined);
    const [reference, ...others] = embedding;
    if (!reference) continue;
    for (const other of others) {
      if (sameEmbedded(reference.value, other.value)) continue;
      problems.push({
        message: `${other.res.request.url} embedded ${name} otherwise than ${reference.res.request.url} (${describeValue(other.value)} vs ${describeValue(reference.value)})`,
        res: other.res,
      });
    }
  }
  return problems;
}

function embeddedValue(res: Exchange, name: string): unknown {
  if (res.response.status !== 200) return undefined;
  const body = jsonBody(res);
  return isObject(body) ? body[name] : undefined;
}

/** Lists: the same items as often each, in any order; other values: deep-equal. */
function sameEmbedded(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return isDeepStrictEqual(a, b);
  if (a.length !== b.length) return false;
  const counts = new Map<string, number>();
  for (const item of a) counts.set(canonical(item), (counts.get(canonical(item)) ?? 0) + 1);
  for (const item of b) {
    const left = counts.get(canonical(item)) ?? 0;
    if (left === 0) return false;
    counts.set(canonical(item), left - 1);
  }
  return true;
}

/** JSON with object keys sorted: two equal items read alike whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (!isObject(value)) return JSON.stringify(value) ?? 'undefined';
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
}

function describeValue(value: unknown): string {
  return Array.isArray(value) ? `${value.length} items` : JSON.stringify(value).slice(0, 80);
}
