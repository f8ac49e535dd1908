import yargs, { type CommandModule } from 'yargs';
import { CliError } from './cli-error.js';

/**
 * Each command's module, loaded only when that command runs: `apikit serve` must not pay for
 * the conformance runner's or Prism's imports (its cold start is budgeted at 300 ms).
 */
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  serve: async () => (await import('./commands/serve-command.js')).serveCommand as CommandModule,
  spec: async () => (await import('./commands/spec-command.js')).specCommand,
  conform: async () =>
    (await import('./commands/conform-command.js')).conformCommand as CommandModule,
  mock: async () => (await import('./commands/mock-command.js')).mockCommand as CommandModule,
  proxy: async () => (await import('./commands/proxy-command.js')).proxyCommand as CommandModule,
};

/**
 * The commands to register: only the one named (the first word of the arguments), or all of
 * them for `--help`, `--version`, no command or an unknown one (so that yargs can list them
 * and suggest the nearest name). Registered in one order, so help reads the same either way.
 */
async function commandsFor(argv: string[]): Promise<CommandModule[]> {
  const named = argv.find((arg) => !arg.startsWith('-'));
  const loaders =
    named !== undefined && Object.hasOwn(COMMANDS, named)
      ? [COMMANDS[named] as () => Promise<CommandModule>]
      : Object.values(COMMANDS);
  return Promise.all(loaders.map((load) => load()));
}

/**
 * Whether yargs will print a help text. Only then is it worth wrapping: yargs renders the help
 * of every command it runs (to cache it), and wrapping it to the terminal's width took 20-40 ms
 * of `apikit serve`'s 300 ms start (decision 0032). Our `.fail` prints the message alone.
 */
function asksForHelp(argv: string[]): boolean {
  return argv.some((arg) => arg === '--help' || arg === '-h');
}

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
    .command(await commandsFor(argv))
    .demandCommand(1, 'name a command; see apikit --help')
    .strict()
    .recommendCommands()
    .wrap(asksForHelp(argv) ? Math.min(110, process.stdout.columns || 100) : null)
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
