import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/operations.js';
import {
  asSchema,
  effectiveSchema,
  isReadOnly,
  stableJson,
  type Schema,
} from '../../spec/schema/effective-schema.js';
import { jsonRequestBody } from '../generate/json-request-body.js';

/**
 * The GET that reads back what a write changed: the GET of the same path (PUT, PATCH,
 * DELETE), else, for a POST action such as `/users/{id}/activate`, the GET of the path
 * without its trailing literal segments, taking only path parameters the write has.
 * Producers (POST creating a resource) are read back through their links instead.
 */
export function readBackOperation(
  op: SpecOperation,
  all: readonly SpecOperation[],
): SpecOperation | undefined {
  const get = (path: string) => all.find((o) => o.method === 'get' && o.path === path);
  if (op.method !== 'post') return get(op.path);
  const segments = op.path.split('/');
  while (segments.length > 1 && !/^\{.+\}$/.test(segments[segments.length - 1] ?? '')) {
    segments.pop();
    const parent = segments.join('/');
    if (parent !== op.path && /\{.+\}/.test(parent)) {
      const found = get(parent);
      if (found) return found;
    }
  }
  return undefined;
}

/** The JSON schema of a GET's 200 answer, if any. */
function readSchema(read: SpecOperation): Schema | undefined {
  const ok = read.responses['200'] as OpenAPIV3.ResponseObject | undefined;
  const media = Object.entries(ok?.content ?? {}).find(([type]) => /json/i.test(type))?.[1];
  return media?.schema ? effectiveSchema(asSchema(media.schema)) : undefined;
}

/**
 * How a read-back departs from an accepted write: each written field (a declared, writable
 * property of the request body that the read schema also declares) must read back as sent
 * (objects as a merge: `null` means cleared), and each field both the write's answer and the
 * read-back carry must be equal. A field the read schema declares optional and the read-back
 * leaves out (an expansion, say) is not judged.
 *
 * @example
 * writtenMismatches(updateUser, getUser, '{"age":30}', '{"id":7,"age":30}', '{"id":7,"age":31}');
 * // ['#/age was written as 30 but reads back as 31', '#/age answered 30 by the write ...']
 */
export function writtenMismatches(
  write: SpecOperation,
  read: SpecOperation,
  sentText: string | undefined,
  writeAnswer: string,
  readAnswer: string,
): string[] {
  const got = parseObject(readAnswer);
  if (!got) return ['the read-back is not a JSON object'];
  const out: string[] = [];
  const schema = readSchema(read);
  const sent = sentText !== undefined ? parseObject(sentText) : undefined;
  const body = jsonRequestBody(write);
  if (sent && body && schema) {
    const writable = effectiveSchema(body.schema).properties ?? {};
    for (const [name, value] of Object.entries(sent)) {
      const property = writable[name];
      if (!property || isReadOnly(property) || !schema.properties?.[name]) continue;
      if (!(name in got)) {
        if (schema.required?.includes(name) && value !== null)
          out.push(`#/${name} was written but the read-back leaves it out`);
      } else if (!matchesWritten(value, got[name])) {
        out.push(`#/${name} was written as ${short(value)} but reads back as ${short(got[name])}`);
      }
    }
  }
  const answered = parseObject(writeAnswer);
  if (answered) {
    for (const [name, value] of Object.entries(answered)) {
      if (name in got && stableJson(value) !== stableJson(got[name]))
        out.push(
          `#/${name} answered ${short(value)} by the write but reads back as ${short(got[name])}`,
        );
    }
  }
  return out;
}

/** Whether a read value holds what was written: scalars and arrays equal, objects merged. */
export function matchesWritten(sent: unknown, got: unknown): boolean {
  if (isObject(sent) && isObject(got)) {
    return Object.entries(sent).every(([k, v]) =>
      v === null ? got[k] === null || !(k in got) : k in got && matchesWritten(v, got[k]),
    );
  }
  return stableJson(sent) === stableJson(got);
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
