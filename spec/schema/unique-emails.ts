import { effectiveSchema, type Schema } from './effective-schema.js';

/** Hands out email addresses that no other call of the same source (or seed) hands out. */
export interface EmailSource {
  /**
   * The next unique address, `length` characters long when given (clamped to the limits),
   * else in its natural form `conform-<tag>-<n>@example.com`; `undefined` if the limits
   * leave no room for an address.
   */
  next(limits?: { minLength?: number; maxLength?: number; length?: number }): string | undefined;
}

/** The longest address generated on purpose (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;

/**
 * A source of unique addresses `conform-<tag>-<n>@example.com`, where `tag` identifies the
 * run (the seed) and `n` counts up, so that repeated creates never clash on unique emails.
 *
 * @example
 * createEmailSource('2a').next(); // 'conform-2a-1@example.com'
 */
export function createEmailSource(tag: string): EmailSource {
  let n = 0;
  return {
    next(limits = {}) {
      n += 1;
      const min = Math.max(limits.minLength ?? 0, 0);
      const max = Math.min(limits.maxLength ?? Infinity, Math.max(min, MAX_EMAIL_LENGTH));
      const locals = [`conform-${tag}-${n}`, `c${tag}${n}`, `${n}`];
      const wanted = limits.length;
      for (const local of locals) {
        for (const domain of ['example.com', 'ex.co', 'e.co']) {
          const natural = `${local}@${domain}`;
          const length = Math.min(Math.max(wanted ?? natural.length, natural.length, min), max);
          if (length < natural.length) continue;
          const email = sizedEmail(local, length, domain);
          if (email !== undefined) return email;
        }
      }
      return undefined;
    },
  };
}

/**
 * A valid address of exactly `length` characters built from `local`: the local part padded
 * with `x` up to 64 characters, then labels of `d` (at most 63 each) before the domain.
 *
 * @example
 * sizedEmail('a', 20); // 'axxxxxxx@example.com'
 */
export function sizedEmail(
  local: string,
  length: number,
  domain = 'example.com',
): string | undefined {
  const natural = `${local}@${domain}`;
  let extra = length - natural.length;
  if (extra < 0) return undefined;
  let pad = Math.min(extra, Math.max(0, 64 - local.length));
  extra -= pad;
  if (extra === 1) {
    if (pad === 0) return undefined;
    pad -= 1; // a label needs two characters (`d.`): move one from the local part
    extra += 1;
  }
  const labels: string[] = [];
  while (extra > 0) {
    let k = Math.min(63, extra - 1);
    if (extra - (k + 1) === 1) k -= 1;
    labels.push('d'.repeat(k));
    extra -= k + 1;
  }
  return `${local}${'x'.repeat(pad)}@${[...labels, domain].join('.')}`;
}

/**
 * A deep copy of `value` where every string the schema marks `format: email` (at any depth,
 * in any branch of `oneOf`/`anyOf`) is a fresh unique address of the same length where the
 * schema allows, so that boundary lengths survive.
 */
export function withUniqueEmails(value: unknown, schema: Schema, emails: EmailSource): unknown {
  return replace(structuredClone(value), [schema], emails, 0);
}

function replace(value: unknown, schemas: Schema[], emails: EmailSource, depth: number): unknown {
  if (depth > 32 || schemas.length === 0) return value;
  const views = expand(schemas);
  if (typeof value === 'string') {
    const email = views.find((s) => s.format === 'email');
    if (!email) return value;
    return (
      emails.next({
        minLength: email.minLength,
        maxLength: email.maxLength,
        length: value.length,
      }) ?? value
    );
  }
  if (Array.isArray(value)) {
    const items = views.flatMap((s) => (s.items ? [s.items] : []));
    return items.length === 0 ? value : value.map((v) => replace(v, items, emails, depth + 1));
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const children = views.flatMap((s) => {
        const own = s.properties?.[key];
        if (own) return [own];
        return typeof s.additionalProperties === 'object' ? [s.additionalProperties] : [];
      });
      if (children.length > 0) record[key] = replace(record[key], children, emails, depth + 1);
    }
  }
  return value;
}

/** The schemas and their `oneOf`/`anyOf` branches, `allOf` merged. */
function expand(schemas: Schema[]): Schema[] {
  const out: Schema[] = [];
  const visit = (s: Schema, depth: number) => {
    const e = effectiveSchema(s);
    out.push(e);
    if (depth > 4) return;
    for (const branch of [...(e.oneOf ?? []), ...(e.anyOf ?? [])]) visit(branch, depth + 1);
  };
  for (const s of schemas) visit(s, 0);
  return out;
}
