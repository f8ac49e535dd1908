/**
 * An error the user can fix (a bad option, an unreadable file, an unreachable target): the CLI
 * prints its message without a stack trace and exits 2, "could not run".
 */
export class CliError extends Error {
  override name = 'CliError';
}
