import type { Exchange } from '../../http/target-client.js';
import { describe } from './stateful-support.js';

/** How much of a read-back's body a failure shows: enough to see the values judged. */
const SHOWN = 300;

/**
 * The `actual` of a failure that a read-back shows: what the write answered, then what the
 * read-back found. The write is the failure's request (its curl line sends the cause again);
 * the GET that showed it is evidence, not the request to reproduce (decision 0098).
 *
 * @example
 * record.fail(op, { message, expected, actual: readBackEvidence(patch, get) }, patch);
 * // 'PATCH http://…/users/5 -> 200; read back: GET http://…/users/5 -> 200 {"age":30,…}'
 */
export function readBackEvidence(
  cause: Exchange,
  readBack: Exchange,
  shown = readBack.response.body.slice(0, SHOWN),
): string {
  return `${describe(cause)}; read back: ${describe(readBack)}${shown ? ` ${shown}` : ''}`;
}
