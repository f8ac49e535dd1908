/**
 * Cache-Control as a set of directives (RFC 9111 5.2), for judging an answer's policy against
 * the ones a description gives it: by what a cache does with it, not by spelling (order, letter
 * case, spaces and quotes around an argument do not count).
 */

/** One directive: its name in lower case and its argument (without quotes), if any. */
export interface CacheDirective {
  name: string;
  argument: string | undefined;
}

/**
 * The directives of a Cache-Control value, in order (a repeated one repeated).
 *
 * @example
 * cacheDirectives('private, max-age="60"'); // [{ name: 'private' }, { name: 'max-age', argument: '60' }]
 */
export function cacheDirectives(value: string): CacheDirective[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) return { name: part.toLowerCase(), argument: undefined };
      return {
        name: part.slice(0, eq).trim().toLowerCase(),
        argument: part
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      };
    });
}

/** Directives that let a cache keep or reuse an answer without asking the origin. */
const FRESHNESS = ['max-age', 's-maxage', 'stale-while-revalidate', 'stale-if-error'];

/**
 * What each directive of a policy rules out when it appears beside it (RFC 9111 5.2.2):
 * `private` keeps an answer from shared caches, so `public` and a shared lifetime undo it;
 * `no-store` and `no-cache` forbid reuse without the origin, so any lifetime above 0 or
 * `immutable` loosens them; a lifetime promised (`max-age=3600`) is taken back by `no-store`
 * and `no-cache`.
 */
function contradicts(required: CacheDirective, other: CacheDirective): boolean {
  const grantsReuse = FRESHNESS.includes(other.name)
    ? Number(other.argument) > 0
    : other.name === 'immutable';
  switch (required.name) {
    case 'private':
      return other.name === 'public' || other.name === 's-maxage';
    case 'public':
      return other.name === 'private' || other.name === 'no-store';
    case 'no-store':
      return grantsReuse || other.name === 'public';
    case 'no-cache':
      return grantsReuse;
    case 'max-age':
    case 's-maxage':
      return (
        Number(required.argument) > 0 && (other.name === 'no-store' || other.name === 'no-cache')
      );
    default:
      return false;
  }
}

/**
 * Why an answer's Cache-Control does not hold `policy`, or undefined when it does: every
 * directive of the policy is there with its argument, none is given twice with another
 * argument, and no other directive contradicts one of the policy's. Directives the policy
 * does not name and nothing contradicts (`must-revalidate`, an extension) are allowed: a
 * cache ignores what it does not know (RFC 9111 5.2.3).
 *
 * @example
 * policyBreak('private, no-cache', 'no-cache, private'); // undefined
 * policyBreak('public, max-age=60', 'private, no-cache');
 * // 'it lacks private, no-cache; public, max-age=60 contradict it'
 */
export function policyBreak(value: string, policy: string): string | undefined {
  const given = cacheDirectives(value);
  const wanted = cacheDirectives(policy);
  const missing = wanted.filter((w) => !given.some((g) => g.name === w.name && sameArgument(g, w)));
  const twice = given.filter((g, i) =>
    given.some((other, j) => j < i && other.name === g.name && !sameArgument(other, g)),
  );
  const against = given.filter((g) => wanted.some((w) => contradicts(w, g)));
  const reasons = [
    ...(missing.length ? [`it lacks ${missing.map(show).join(', ')}`] : []),
    ...(twice.length ? [`it gives ${twice.map((t) => t.name).join(', ')} twice`] : []),
    ...(against.length
      ? [`${against.map(show).join(', ')} ${against.length > 1 ? 'contradict' : 'contradicts'} it`]
      : []),
  ];
  return reasons.length ? reasons.join('; ') : undefined;
}

function sameArgument(a: CacheDirective, b: CacheDirective): boolean {
  if (a.argument === undefined || b.argument === undefined) return a.argument === b.argument;
  return /^\d+$/.test(a.argument) && /^\d+$/.test(b.argument)
    ? Number(a.argument) === Number(b.argument)
    : a.argument.toLowerCase() === b.argument.toLowerCase();
}

function show(d: CacheDirective): string {
  return d.argument === undefined ? d.name : `${d.name}=${d.argument}`;
}
