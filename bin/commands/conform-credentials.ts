import type { ConformanceOptions } from '../../conformance/index.js';
import { CliError } from '../cli-error.js';
import type { ConformArgs } from './conform-options.js';

/**
 * Options first, then the environment, so secrets need not be on the command line. A value
 * given but empty is named: `--password "$USER_PASSWORD"` with the variable unset arrives as
 * '' and must not read as a missing option.
 */
export function credentials(
  args: ConformArgs,
  env: NodeJS.ProcessEnv,
): Partial<ConformanceOptions> {
  const pick = (option: keyof ConformArgs, variable: string): string | undefined => {
    const given = args[option] as string | undefined;
    if (given !== undefined) {
      if (given.trim() === '')
        throw new CliError(
          `--${option} is empty (a shell variable that is not set expands to nothing, e.g. --${option} "$UNSET"); give it a value or leave the option out`,
        );
      return given;
    }
    const value = env[variable];
    if (value !== undefined && value.trim() === '')
      throw new CliError(`${variable} is set but empty; give it a value or unset it`);
    return value;
  };
  const token = pick('token', 'APIKIT_CONFORM_TOKEN');
  const username = pick('username', 'APIKIT_CONFORM_USERNAME');
  const password = pick('password', 'APIKIT_CONFORM_PASSWORD');
  const adminUsername = pick('admin-username', 'APIKIT_CONFORM_ADMIN_USERNAME');
  const adminPassword = pick('admin-password', 'APIKIT_CONFORM_ADMIN_PASSWORD');
  if (Boolean(username) !== Boolean(password))
    throw new CliError(
      '--username and --password go together (or APIKIT_CONFORM_USERNAME/PASSWORD)',
    );
  if (Boolean(adminUsername) !== Boolean(adminPassword))
    throw new CliError(
      '--admin-username and --admin-password go together (or APIKIT_CONFORM_ADMIN_USERNAME/PASSWORD)',
    );
  return {
    ...(token ? { token } : {}),
    ...(username && password ? { username, password } : {}),
    ...(adminUsername && adminPassword ? { adminUsername, adminPassword } : {}),
  };
}
