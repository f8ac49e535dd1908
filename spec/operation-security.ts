import type { SpecOperation } from './operations.js';

/**
 * What an operation's effective security requirements say about credentials. OpenAPI lists
 * alternatives; an empty requirement (`{}`) is the alternative of sending none. Two questions
 * follow, and each has its own name so that "secured" means one thing wherever it is read.
 */
type Secured = Pick<SpecOperation, 'security'>;

const namesAScheme = (requirement: object) => Object.keys(requirement).length > 0;

/**
 * Whether a call without credentials is refused: there are requirements and every one names a
 * scheme (no empty alternative). The opposite of an open operation.
 *
 * @example
 * needsCredentials(getUser); // true
 * needsCredentials(login); // false: its security is []
 */
export function needsCredentials(op: Secured): boolean {
  return op.security.length > 0 && op.security.every(namesAScheme);
}

/**
 * Whether credentials mean something to the operation: some requirement names a scheme, so a
 * client that holds them sends them (also where sending none is allowed too).
 *
 * @example
 * acceptsCredentials({ security: [{}, { bearerAuth: [] }] }); // true, though not needed
 */
export function acceptsCredentials(op: Secured): boolean {
  return op.security.some(namesAScheme);
}
