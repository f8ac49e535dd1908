import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { specPath as bundledSpecPath } from '../../spec/spec-path.js';
import { CliError } from '../cli-error.js';
import { listenError } from '../listen-error.js';
import { requirePeer } from '../optional-peer.js';
import { untilStopRequested } from '../stop-requests.js';

interface ProxyArgs {
  targetUrl: string;
  port: number;
  host: string;
  spec?: string;
  errors: boolean;
  reporter: 'console' | 'json';
  output?: string;
  'exit-after'?: number;
  'fail-on-no-success': boolean;
  'fail-on-5xx': boolean;
  command?: string[];
  _: (string | number)[];
}

/**
 * `apikit proxy <targetUrl>`: Prism's validation proxy in front of a live backend; every
 * contract violation of a request or an answer passing through is printed as one line. Runs
 * until SIGINT/SIGTERM (or the npx above it gone, or `--exit-after`, or until the command after
 * `--` exits: it runs with APIKIT_PROXY_URL), then writes its report, prints a summary and
 * exits 1 when it saw a violation (or, when asked, no success or a 5xx), 0 otherwise (a failed
 * command's own status first), so that a CI job can run its tests through it (decisions 0058,
 * 0099).
 */
export const proxyCommand: CommandModule<object, ProxyArgs> = {
  command: 'proxy <targetUrl> [command..]',
  describe:
    'Validate live traffic: a proxy in front of a backend that reports every contract violation (exit 1 if any)',
  builder: (y) =>
    y
      .positional('targetUrl', {
        type: 'string',
        demandOption: true,
        describe:
          "the backend's origin (API under /api/v1), e.g. http://127.0.0.1:3000, or its API base URL",
      })
      .positional('command', {
        type: 'string',
        array: true,
        describe:
          'a command to run against the proxy (give it after --), with APIKIT_PROXY_URL set; the proxy stops when it exits',
      })
      .option('port', {
        alias: 'p',
        type: 'number',
        default: 4010,
        describe: 'port of the proxy (0 picks a free one)',
      })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to bind' })
      .option('spec', {
        type: 'string',
        describe: 'OpenAPI description to validate against (default: the bundled contract)',
      })
      .option('errors', {
        type: 'boolean',
        default: false,
        describe:
          "answer violations with Prism's problems: a bad request gets 422 (401 without credentials) instead of reaching the backend, a bad answer 500",
      })
      .option('reporter', {
        choices: ['console', 'json'] as const,
        default: 'console' as const,
        describe:
          'console: a line per violation and a summary; json: the report on stdout at exit (lines on stderr)',
      })
      .option('output', {
        alias: 'o',
        type: 'string',
        describe: 'also write the JSON report to this file at exit',
      })
      .option('exit-after', {
        type: 'number',
        describe: 'stop by itself after this many seconds (as on SIGINT)',
      })
      .option('fail-on-no-success', {
        type: 'boolean',
        default: false,
        describe:
          'exit 1 when no API answer was a 2xx or 3xx (all 401 after a failed login, say): such traffic validated nothing a client lives on',
      })
      .option('fail-on-5xx', {
        type: 'boolean',
        default: false,
        describe: 'exit 1 when any API answer was a 5xx, documented or not',
      })
      .example(
        '$0 proxy http://127.0.0.1:3000 -- npm test',
        'run the tests against the proxy (APIKIT_PROXY_URL); exit 1 on a violation',
      )
      .example(
        '$0 proxy http://127.0.0.1:3000 --fail-on-no-success --fail-on-5xx -o proxy.json -- npm test',
        'in CI: also fail when nothing succeeded or the server answered a 5xx',
      )
      .check((a) => {
        if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535)
          throw new Error('--port must be 0-65535');
        if (a['exit-after'] !== undefined && !(a['exit-after'] > 0))
          throw new Error('--exit-after must be a number of seconds > 0');
        let url: URL;
        try {
          url = new URL(a.targetUrl);
        } catch {
          throw new Error(`not a URL: ${a.targetUrl}`);
        }
        if (url.protocol !== 'http:' && url.protocol !== 'https:')
          throw new Error(`not an http(s) URL: ${a.targetUrl}`);
        return true;
      }),
  handler: async (args) => {
    const specPath = args.spec ? resolve(args.spec) : bundledSpecPath;
    if (!existsSync(specPath)) throw new CliError(`no such spec file: ${args.spec}`);
    requirePeer('@stoplight/prism-cli', 'apikit proxy');
    // Checked before Prism starts: a report that cannot be written is found now, not at exit.
    if (args.output) await writableFile(args.output);
    // Loaded on use, so that other commands start without Prism.
    const [
      { PrismStartError },
      { formatViolation, startValidationProxy },
      { formatSummary },
      { judgeSession },
    ] = await Promise.all([
      import('../../node-runtime/start-prism.js'),
      import('../../proxy/start-validation-proxy.js'),
      import('../../proxy/proxy-tally.js'),
      import('../../proxy/proxy-outcome.js'),
    ]);
    // With the JSON report on stdout, the live lines go to stderr.
    const say = args.reporter === 'json' ? console.error : console.log;
    let proxy;
    try {
      proxy = await startValidationProxy({
        target: args.targetUrl,
        specPath,
        port: args.port,
        host: args.host,
        errors: args.errors,
        onViolation: (violation) => say(formatViolation(violation)),
      });
    } catch (error) {
      if (error instanceof PrismStartError) throw new CliError(error.message);
      const unlistened = listenError(error, args);
      if (unlistened) throw unlistened;
      if (error instanceof Error && /swagger|\$ref|OpenAPI|YAML|JSON/i.test(error.message))
        throw new CliError(`cannot use ${specPath}: ${error.message.split('\n')[0]}`);
      throw error;
    }
    say(
      [
        `apikit proxy (Prism validation proxy) listening on ${proxy.url}`,
        `  API:     ${proxy.url}/api/v1 -> ${proxy.upstream} (validated against ${specPath})`,
        `  Other:   every other path goes straight to ${new URL(args.targetUrl).origin}, unvalidated`,
        `  Output:  one line per violation: violation: METHOD PATH -> STATUS: where: what`,
        `  Stop:    SIGINT/SIGTERM${args['exit-after'] ? ` or after ${args['exit-after']} s` : ''}${(args.command?.length ?? 0) + args._.length > 1 ? ' or when the command exits' : ''}: a summary, exit 1 if any violation was seen`,
      ].join('\n'),
    );
    // `apikit proxy URL -- npm test`: the command runs against the proxy, then the proxy stops.
    // After `--` yargs leaves the words in `_` (behind the command's name); without it, in
    // `command` (where a word starting with a dash would be taken for an option of the proxy).
    const command = [...(args.command ?? []), ...args._.slice(1)].map(String);
    const { reason, commandStatus } = await untilProxyStops(args, command, proxy.url, say);
    console.error(`${reason}: stopping the proxy`);
    await proxy.close();
    const summary = proxy.summary();
    const findings = proxy.findings();
    const outcome = judgeSession(summary, {
      failOnNoSuccess: args['fail-on-no-success'],
      failOn5xx: args['fail-on-5xx'],
    });
    const report = {
      summary: {
        target: args.targetUrl,
        spec: specPath,
        stoppedBy: reason,
        ...(command.length > 0 ? { command: command.join(' '), commandStatus } : {}),
        ...summary,
        ...outcome,
      },
      ...findings,
    };
    const text = JSON.stringify(report, null, 2) + '\n';
    // The file first: a reader of stdout gone (the npx above stopped) must not cost the report.
    if (args.output) await writeFile(args.output, text);
    if (args.reporter === 'json') process.stdout.write(text);
    else console.log(formatSummary(summary, findings.serverErrors));
    for (const note of outcome.notes) console.error(`apikit proxy: warning: ${note}`);
    for (const flag of outcome.failedBy) console.error(`apikit proxy: failing: ${flag}`);
    // A failed command's own status first (the tests failed), else 1 for violations or a
    // warning a --fail-on-* flag asked to fail on.
    const failed = summary.violations > 0 || outcome.failedBy.length > 0;
    process.exitCode = commandStatus ? commandStatus : failed ? 1 : 0;
  },
};

/**
 * Waits for what ends a session: SIGINT, SIGTERM or the npx above gone (decision 0099; the same
 * signal again quits), `--exit-after`, or the end of the command (which a signal is passed to).
 */
function untilProxyStops(
  args: ProxyArgs,
  command: string[],
  proxyUrl: string,
  say: (line: string) => void,
): Promise<{ reason: string; commandStatus?: number }> {
  let commandStatus: number | undefined;
  return new Promise((resolveStop) => {
    const done = (reason: string) =>
      resolveStop({ reason, ...(commandStatus === undefined ? {} : { commandStatus }) });
    let child: ReturnType<typeof spawn> | undefined;
    void untilStopRequested().then(({ signal, reason }) => {
      if (child && child.exitCode === null)
        child.kill(signal); // its exit ends the wait
      else done(reason);
    });
    if (args['exit-after'])
      setTimeout(() => done(`after ${args['exit-after']} s`), args['exit-after'] * 1000).unref();
    if (command.length === 0) return;
    say(`  Running: ${command.join(' ')} (APIKIT_PROXY_URL=${proxyUrl}/api/v1)`);
    child = spawn(command[0]!, command.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, APIKIT_PROXY_URL: `${proxyUrl}/api/v1` },
    });
    child.once('error', (error) => {
      console.error(`apikit proxy: cannot run ${command[0]}: ${error.message}`);
      commandStatus = 2;
      done('the command could not start');
    });
    child.once('exit', (code, signal) => {
      commandStatus = code ?? 128 + (signal === 'SIGINT' ? 2 : 15);
      done(`the command exited (${code ?? signal})`);
    });
  });
}

/** Makes the report's folder, and fails now if the path is a folder or cannot be written. */
async function writableFile(file: string): Promise<void> {
  try {
    await mkdir(dirname(resolve(file)), { recursive: true });
    const { stat } = await import('node:fs/promises');
    const info = await stat(file).catch(() => undefined);
    if (info?.isDirectory()) throw new CliError(`--output ${file} is a folder; name a file`);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
}
