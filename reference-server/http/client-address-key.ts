import { isIPv4, isIPv6 } from 'node:net';

/**
 * The rate-limit key of a client address, as express-rate-limit's `ipKeyGenerator` makes it:
 * IPv4 as it is; an IPv4 address written inside IPv6 (`::ffff:1.2.3.4`, or the deprecated
 * `::1.2.3.4`) as that IPv4 address; any other IPv6 address as its /56 network in RFC 5952
 * form (one client often holds a whole /64 or more, so a single address would be too easy to
 * change). Written here, with a test against `ipKeyGenerator`, because that helper loads the
 * whole limiter package and an IPv6 parser into the server's start for a few lines of work.
 *
 * @example
 * clientAddressKey('2001:db8:abcd:12ff::1'); // '2001:db8:abcd:1200::/56'
 */
export function clientAddressKey(address: string): string {
  if (!isIPv6(address)) return address;
  const groups = parseIPv6(address);
  if (groups === undefined) return address;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const dotted = /\.\d+$/.test(address.split('%')[0] as string);
  const mapped = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff;
  const compatible = dotted && g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  if (mapped || compatible) return `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
  // /56: three whole groups and the high byte of the fourth.
  return `${rfc5952([g0, g1, g2, g3 & 0xff00, 0, 0, 0, 0])}/56`;
}

/** The eight 16-bit groups of an IPv6 address (zone id ignored), or undefined. */
function parseIPv6(address: string): number[] | undefined {
  let text = address.split('%')[0] as string;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (isIPv4(last)) {
    // A dotted IPv4 tail is the last two groups.
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const head = parse(halves[0] as string);
  const rest = halves.length === 2 ? parse(halves[1] as string) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [
    ...head,
    ...new Array<number>(halves.length === 2 ? missing : 0).fill(0),
    ...rest,
  ];
  return groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** RFC 5952 text: lower-case hex, no leading zeros, the longest run of 2+ zero groups as `::`. */
function rfc5952(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
