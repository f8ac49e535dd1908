import type { OpenAPIV3 } from 'openapi-types';
import { declaredValidation } from './apikit-extensions.js';

/**
 * Where a description declares `x-apikit-validation.commaSeparatedArraysRepeatable`, a function
 * that rewrites a query string so that repeated occurrences of a query array declared
 * comma-separated (`style: form`, `explode: false`) become the one comma-separated value the
 * description documents (`expand=user&expand=items` -> `expand=user,items`); elsewhere the
 * identity. For the faces that hand requests to a validator reading the description literally
 * (Prism), so that they accept what the contract accepts (decision 0102).
 *
 * @example
 * const fold = foldRepeatedQuery(doc);
 * fold('expand=user&expand=items&page=1'); // 'expand=user,items&page=1'
 */
export function foldRepeatedQuery(doc: OpenAPIV3.Document): (query: string) => string {
  if (!declaredValidation(doc).commaSeparatedArraysRepeatable) return (query) => query;
  const names = commaSeparatedQueryArrays(doc);
  if (names.size === 0) return (query) => query;
  return (query) => {
    const pairs = query.split('&');
    const keyOf = (pair: string) => {
      const at = pair.indexOf('=');
      return decodeURIComponentSafe(at < 0 ? pair : pair.slice(0, at));
    };
    const repeated = new Set(
      pairs.map(keyOf).filter((key, i, all) => names.has(key) && all.indexOf(key) !== i),
    );
    if (repeated.size === 0) return query;
    const folded = new Map<string, string[]>();
    const out: string[] = [];
    for (const pair of pairs) {
      const key = keyOf(pair);
      if (!repeated.has(key)) {
        out.push(pair);
        continue;
      }
      const value = pair.includes('=') ? pair.slice(pair.indexOf('=') + 1) : '';
      let values = folded.get(key);
      if (values === undefined) {
        values = [];
        folded.set(key, values);
        out.push(key); // its place, filled below
      }
      values.push(value);
    }
    return out
      .map((pair) =>
        folded.has(pair) ? `${encodeURIComponent(pair)}=${folded.get(pair)!.join(',')}` : pair,
      )
      .join('&');
  };
}

/** Names of the query parameters that some operation declares as comma-separated arrays. */
function commaSeparatedQueryArrays(doc: OpenAPIV3.Document): Set<string> {
  const names = new Set<string>();
  const resolve = (p: OpenAPIV3.ParameterObject | OpenAPIV3.ReferenceObject) =>
    '$ref' in p
      ? (doc.components?.parameters?.[p.$ref.split('/').pop()!] as
          OpenAPIV3.ParameterObject | undefined)
      : p;
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item ?? {})) {
      if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
      for (const ref of [...(item?.parameters ?? []), ...(op.parameters ?? [])]) {
        const p = resolve(ref);
        const schema = p?.schema as OpenAPIV3.SchemaObject | undefined;
        if (p?.in === 'query' && p.explode === false && schema?.type === 'array') names.add(p.name);
      }
    }
  }
  return names;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
