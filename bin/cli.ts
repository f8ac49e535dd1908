import yargs from 'yargs';
import { conformCommand } from './commands/conform-command.js';
import { mockCommand } from './commands/mock-command.js';
import { proxyCommand } from './commands/proxy-command.js';
import { serveCommand } from './commands/serve-command.js';
import { specCommand } from './commands/spec-command.js';
import { CliError } from './cli-error.js';

/**
 * Runs the `apikit` command line with the given arguments. Exit codes: 0 success, 1 the
 * checked thing failed (an invalid spec, a failed conformance check), 2 could not run.
 *
 * @example
 * await main(['spec', 'validate']);
 */
export async function main(argv: string[]): Promise<void> {
  const cli = yargs(argv)
    .scriptName('apikit')
    .usage('$0 <command> [options]\n\nContract toolkit for the User/Order service.')
    .command(serveCommand)
    .command(specCommand)
    .command(conformCommand)
    .command(mockCommand)
    .command(proxyCommand)
    .demandCommand(1, 'name a command; see apikit --help')
    .strict()
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .help()
    .alias('help', 'h')
    .version()
    .fail((message, error) => {
      if (error) throw error;
      throw new CliError(message);
    });
  try {
    await cli.parseAsync();
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    console.error(`apikit: ${error.message}`);
    process.exitCode = 2;
  }
}
