import type { Resource } from './resource.js';

/**
 * A request's preconditions (If-Match, If-None-Match), judged by the write itself against the
 * resource as the transaction reads it (undefined: absent), and throwing the 412. The pipeline
 * judges them once before the body is read (the contract's check order); judged again here,
 * two writers holding the same ETag cannot both win, whichever instance each one reaches.
 */
export type Precondition = (current: Resource<unknown> | undefined) => void;

/** The precondition of a request that sent none. */
export const NO_PRECONDITION: Precondition = () => undefined;
