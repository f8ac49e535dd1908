import type { Ajv, ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import { ApiProblem, type ProblemErrorEntry } from '../domain/api-problem.js';
import type { SpecOperation } from '../../spec/operations.js';
import { toErrorEntries } from './ajv-errors.js';

/** Bodies over this size are refused with 413 (contract: 100 KiB). */
export const MAX_BODY_BYTES = 100 * 1024;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Content-Type negotiation, JSON parsing and schema validation of one operation's request
 * body. A body the spec marks optional may be left out (the actions declare an optional `{}`);
 * a POST, PUT or PATCH that declares no body at all takes nothing or `{}`.
 */
export class BodyParser {
  /** Media types the operation accepts, from the spec (PATCH adds merge-patch+json). */
  readonly mediaTypes: string[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    private readonly operation: SpecOperation,
    ajv: Ajv,
  ) {
    const content = operation.requestBody?.content ?? {};
    this.mediaTypes = Object.keys(content);
    for (const [type, media] of Object.entries(content)) {
      this.validators.set(type, ajv.compile((media.schema ?? {}) as OpenAPIV3.SchemaObject));
    }
  }

  /** A declared body that is not `required` may be left out (the bodiless actions take `{}` or nothing). */
  private get required(): boolean {
    return this.operation.requestBody?.required === true;
  }

  private isEmpty(body: Uint8Array | null): boolean {
    return !body || body.length === 0;
  }

  /** Whether a request of this method carries a body worth reading at all. */
  get takesBody(): boolean {
    return ['POST', 'PUT', 'PATCH'].includes(this.operation.method.toUpperCase());
  }

  /** 415 when the body's Content-Type is not one the operation takes (charset must be UTF-8). */
  checkMediaType(headers: Headers, body: Uint8Array | null): string | undefined {
    if (!this.takesBody || (this.isEmpty(body) && !this.required)) return undefined;
    const declared = this.mediaTypes.length > 0;
    const accepted = declared ? this.mediaTypes : ['application/json'];
    const header = headers.get('content-type');
    const [essence, ...params] = (header ?? '').split(';').map((s) => s.trim());
    const type = (essence ?? '').toLowerCase();
    const charsetOk = params.every((p) => {
      const [key, value] = p.split('=').map((s) => s.trim().toLowerCase());
      return key !== 'charset' || value === 'utf-8' || value === '"utf-8"';
    });
    if (accepted.includes(type) && charsetOk) return type;
    const isPatch = this.operation.method === 'patch';
    throw new ApiProblem(
      'unsupported-media-type',
      header
        ? `Content-Type ${header} is not supported here; send ${accepted.join(' or ')} (UTF-8)`
        : `a body needs a Content-Type; send ${accepted.join(' or ')}`,
      isPatch ? { headers: { 'Accept-Patch': this.mediaTypes.join(', ') } } : {},
    );
  }

  /** Parses and validates the body; throws a 400 problem listing every violation. */
  parse(mediaType: string | undefined, body: Uint8Array | null): unknown {
    if (!this.takesBody || (this.isEmpty(body) && !this.required)) return undefined;
    const declared = this.mediaTypes.length > 0;
    let value: unknown;
    try {
      const text = utf8.decode(body ?? new Uint8Array());
      if (text.trim() === '') throw new SyntaxError('the body is empty');
      value = JSON.parse(text);
    } catch (error) {
      const detail = error instanceof SyntaxError ? error.message : 'the body is not valid UTF-8';
      throw new ApiProblem('malformed-json', `The request body is not valid JSON: ${detail}`, {
        errors: [{ pointer: '#', detail }],
      });
    }
    const errors: ProblemErrorEntry[] = [];
    if (!declared) {
      const isEmptyObject =
        value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.keys(value).length === 0;
      if (!isEmptyObject)
        errors.push({ pointer: '#', detail: 'this action takes no body; send nothing or {}' });
    } else {
      const validate =
        this.validators.get(mediaType ?? '') ??
        (this.validators.values().next().value as ValidateFunction);
      if (!validate(value)) errors.push(...toErrorEntries(validate.errors, '#'));
    }
    findLoneSurrogates(value, '#', errors);
    if (errors.length > 0) {
      throw new ApiProblem('validation-failed', describe(errors), { errors });
    }
    return value;
  }
}

/** A one-line summary for `detail`; the entries carry the specifics. */
export function describe(errors: ProblemErrorEntry[]): string {
  const first = errors[0];
  if (!first) return 'The request is invalid';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${first.pointer} ${first.detail}${more}`;
}

/**
 * Every string holding a lone surrogate, at any depth. Iterative on purpose: a body nested
 * tens of thousands deep (well under the size limit) would overflow the stack of a recursive
 * walk, and the RangeError became a 500.
 */
function findLoneSurrogates(root: unknown, rootPointer: string, errors: ProblemErrorEntry[]): void {
  const stack: [unknown, string][] = [[root, rootPointer]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [value, pointer] = next;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value))
        errors.push({ pointer, detail: 'contains a lone UTF-16 surrogate' });
    } else if (Array.isArray(value)) {
      // Children go on the stack last-first, so errors keep document order.
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${pointer}/${i}`]);
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, v] = entries[i] as [string, unknown];
        stack.push([v, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
      }
    }
  }
}
