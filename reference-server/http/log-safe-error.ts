/** Absolute file paths and file: URLs (POSIX and Windows) inside an error message. */
const PATH = /(?:file:\/\/)?(?:[A-Za-z]:\\|\/)[^\s'"`()<>,;]+/g;
const MAX_LENGTH = 300;

/**
 * An error as a log line may show it: name, code and the first line of the message with every
 * absolute path replaced by `<path>`; never the stack. Log lines leave the machine (log
 * shippers, support tickets), and a path tells an attacker where things are.
 *
 * @example
 * log({ level: 'error', msg: 'unexpected error', error: logSafeError(error) });
 * // "Error [EACCES]: permission denied, open '<path>'"
 */
export function logSafeError(error: unknown): string {
  if (!(error instanceof Error)) return `non-error thrown (${typeof error})`;
  const code = (error as { code?: unknown }).code;
  const name = typeof code === 'string' ? `${error.name} [${code}]` : error.name;
  const firstLine = error.message.split('\n', 1)[0] ?? '';
  return `${name}: ${firstLine.replace(PATH, '<path>')}`.slice(0, MAX_LENGTH);
}
