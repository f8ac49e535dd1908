import { MAX_EMAIL_LENGTH, sizedEmail } from './unique-emails.js';
import { CONSONANTS, targetLength } from './plain-string.js';
import type { SeededRandom } from './seeded-random.js';
import type { ValueContext } from './value-context.js';

/** The placeholder local part of generated addresses; made unique by `withUniqueEmails`. */
export const PLACEHOLDER_EMAIL = 'conform@example.com';

/** Formats `formatString` makes; an unknown format gets a plain string. */
export const KNOWN_FORMATS = new Set([
  'email',
  'date-time',
  'date',
  'time',
  'uri',
  'url',
  'uri-reference',
  'iri',
  'uuid',
  'hostname',
  'ipv4',
  'ipv6',
  'byte',
]);

/** A string of a known format within the length limits, `undefined` if none fits. */
export function formatString(
  format: string,
  min: number,
  max: number,
  ctx: ValueContext,
): string | undefined {
  const r = ctx.random;
  const fits = (v: string) => ([...v].length >= min && [...v].length <= max ? v : undefined);
  switch (format) {
    case 'email': {
      const natural = PLACEHOLDER_EMAIL.length;
      const wanted =
        ctx.mode === 'low'
          ? Math.max(min, 6)
          : ctx.mode === 'high'
            ? Math.min(max, Math.max(min, MAX_EMAIL_LENGTH))
            : Math.min(Math.max(natural, min), max);
      for (const [local, domain] of [
        ['conform', 'example.com'],
        ['c', 'ex.co'],
        ['c', 'e.co'],
      ] as const) {
        const email = sizedEmail(local, Math.max(wanted, `${local}@${domain}`.length), domain);
        if (email !== undefined && fits(email)) return email;
      }
      return undefined;
    }
    case 'date-time': {
      const d = randomDate(r);
      return fits(d.toISOString());
    }
    case 'date':
      return fits(randomDate(r).toISOString().slice(0, 10));
    case 'time':
      return fits(randomDate(r).toISOString().slice(11, 19) + 'Z');
    case 'uuid': {
      const hex = (n: number) =>
        Array.from({ length: n }, () => r.int(0, 15).toString(16)).join('');
      const variant = '89ab'[r.int(0, 3)] as string;
      return fits(`${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`);
    }
    case 'uri':
    case 'url':
    case 'iri':
    case 'uri-reference': {
      const base = 'https://example.com/';
      const wanted =
        ctx.mode === 'low'
          ? Math.max(min, base.length)
          : ctx.mode === 'high'
            ? Math.min(max, Math.max(min, Number.isFinite(max) ? 2048 : 64))
            : Math.min(max, Math.max(min, base.length + r.int(1, 12)));
      if (wanted < base.length) return fits('https://e.co');
      let path = '';
      while (path.length < wanted - base.length) path += CONSONANTS[r.int(0, 17)];
      return fits(base + path);
    }
    case 'hostname':
      return fits(`host-${r.int(1, 9999)}.example.com`);
    case 'ipv4':
      return fits(`192.0.2.${r.int(1, 254)}`);
    case 'ipv6':
      return fits(`2001:db8::${r.int(1, 0xffff).toString(16)}`);
    case 'byte': {
      const length = Math.ceil(targetLength(min, max, ctx) / 4) * 4;
      const text = Array.from({ length }, () => CONSONANTS[r.int(0, 17)]).join('');
      return fits(text);
    }
    default:
      return undefined;
  }
}

function randomDate(r: SeededRandom): Date {
  const start = Date.UTC(2020, 0, 1);
  const span = Date.UTC(2029, 11, 31) - start;
  return new Date(start + Math.floor((r.next() * span) / 1000) * 1000);
}
