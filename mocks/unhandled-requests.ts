/** What MSW does with a request no handler answers: let it pass, warn, or fail it. */
export type UnhandledRequestStrategy = 'bypass' | 'warn' | 'error';

/** MSW's option for unhandled requests under both of its names (decision 0101). */
export interface UnhandledRequestOptions<S extends UnhandledRequestStrategy> {
  /** The name msw 2 reads. */
  onUnhandledRequest: S;
  /** The name msw 3 reads: it renamed the option and ignores the old name without a word. */
  onUnhandledFrame: S;
}

/**
 * The options of `server.listen()` and `worker.start()` for requests no handler answers,
 * under the name of msw 2 (`onUnhandledRequest`) and of msw 3 (`onUnhandledFrame`): each
 * major reads its own and ignores the other, and a value that is not an object literal passes
 * both majors' types, so one setup compiles and behaves alike with msw 2 and 3.
 *
 * @example
 * beforeAll(() => server.listen(unhandledRequests('error')));
 */
export function unhandledRequests<S extends UnhandledRequestStrategy>(
  strategy: S,
): UnhandledRequestOptions<S> {
  return { onUnhandledRequest: strategy, onUnhandledFrame: strategy };
}
