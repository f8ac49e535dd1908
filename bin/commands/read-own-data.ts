import { CliError } from '../cli-error.js';

/**
 * The data set FILE of `--data` (serve and mock), read and checked against the contract: a CliError (exit 2)
 * listing every problem when it is unreadable, not JSON, or does not fit.
 */
export async function readOwnData(file: string) {
  const [
    { readDataSetFile, UnreadableDataSetError },
    { dataSetSeed },
    { InvalidDataSetError },
    { loadBundledSpec },
  ] = await Promise.all([
    import('../../reference-server/data-set/read-data-set-file.js'),
    import('../../core/data-set/load-data-set.js'),
    import('../../core/data-set/data-set-format.js'),
    import('../../spec/bundled-spec.js'),
  ]);
  try {
    const input = await readDataSetFile(file);
    const { spec } = await loadBundledSpec();
    const seed = dataSetSeed(input, spec, file);
    // The accounts that can log in, ADMINs first, for the start banner.
    const users = seed.data.users.filter((user) => user.password !== null);
    users.sort((a, b) => Number(b.roles.includes('ADMIN')) - Number(a.roles.includes('ADMIN')));
    return { seed, logins: users.map((user) => user.email) };
  } catch (error) {
    if (error instanceof InvalidDataSetError || error instanceof UnreadableDataSetError)
      throw new CliError(error.message);
    throw error;
  }
}
