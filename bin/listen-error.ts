import { CliError } from './cli-error.js';

/**
 * The CliError (exit 2, one line) for a socket that could not listen, for every command that
 * serves (`serve`, `mock`, `proxy`); undefined for any other error, which the caller handles.
 */
export function listenError(
  error: unknown,
  where: { host: string; port: number },
): CliError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE')
    return new CliError(`port ${where.port} on ${where.host} is in use; try --port 0`);
  if (code === 'EACCES')
    return new CliError(`no permission to listen on ${where.host}:${where.port}`);
  return undefined;
}
