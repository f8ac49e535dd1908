import { access, constants, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { createDefaultRegistry } from '../../conformance/checks/builtin-checks.js';
import type { Check } from '../../conformance/checks/check.js';
import { DEFAULT_FUZZ_CONCURRENCY } from '../../conformance/fuzz/run-fuzz.js';
import { DEFAULT_CONCURRENCY } from '../../conformance/http/target-client.js';
import {
  createConsoleProgress,
  renderConsoleSummary,
} from '../../conformance/reporters/console-reporter.js';
import {
  FILE_REPORTERS,
  planReportOutputs,
  REPORTER_NAMES,
  ReportOutputError,
  type ReporterName,
} from '../../conformance/reporters/report-outputs.js';
import {
  ConformanceSetupError,
  runConformance,
  type ConformanceOptions,
} from '../../conformance/run-conformance.js';
import type { ConformanceReport } from '../../conformance/report.js';
import { waitForTarget } from '../../conformance/http/wait-for-target.js';
import { CliError } from '../cli-error.js';
import { createFuzzChecks, FUZZ_CHECK_NAMES } from '../../conformance/fuzz/fuzz-checks.js';
import { renderFuzzSummary } from '../../conformance/fuzz/fuzz-tally.js';

interface ConformArgs {
  baseUrl: string | undefined;
  spec: string | undefined;
  token: string | undefined;
  username: string | undefined;
  password: string | undefined;
  'admin-username': string | undefined;
  'admin-password': string | undefined;
  checks: string[] | undefined;
  include: string[] | undefined;
  exclude: string[] | undefined;
  seed: number | undefined;
  'max-examples': number;
  concurrency: number;
  timeout: number;
  'rate-limit': number | undefined;
  bail: boolean;
  'allow-destructive': boolean;
  reporter: ReporterName[];
  output: string | undefined;
  'list-checks': boolean;
  fuzz: number;
  'fuzz-only': boolean;
  'fuzz-concurrency': number;
  header: string[] | undefined;
  'wait-for-target': number | undefined;
}

/** `--checks a,b --checks c` and `--checks a --checks b,c` both mean [a, b, c]. */
const list = (values: unknown) =>
  (Array.isArray(values) ? values : [values])
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * `apikit conform <baseUrl>`: holds a running implementation to the contract and reports
 * what it found. Exit 0 when no check failed, 1 when one did, 2 when the run could not start.
 */
export const conformCommand: CommandModule<object, ConformArgs> = {
  command: 'conform [baseUrl]',
  describe: 'Check a running implementation against the contract (exit 0 conforms, 1 not)',
  builder: (y) =>
    y
      .positional('baseUrl', {
        type: 'string',
        describe: 'the API base URL, e.g. http://127.0.0.1:3000/api/v1',
      })
      .option('spec', {
        type: 'string',
        describe: 'OpenAPI description, a file or an http(s) URL (default: the bundled contract)',
      })
      .option('header', {
        alias: 'H',
        type: 'string',
        array: true,
        describe:
          "'Name: value' sent on every request (API keys, tenants); repeatable; credential-like values kept out of reports",
      })
      .option('wait-for-target', {
        type: 'number',
        describe: 'wait up to SECONDS for the target to answer before the run (a fresh service)',
      })
      .option('token', {
        type: 'string',
        describe: 'bearer token of a user (env APIKIT_CONFORM_TOKEN)',
      })
      .option('username', { type: 'string', describe: 'user login (env APIKIT_CONFORM_USERNAME)' })
      .option('password', {
        type: 'string',
        describe: 'user password (env APIKIT_CONFORM_PASSWORD)',
      })
      .option('admin-username', {
        type: 'string',
        describe: 'admin login (env APIKIT_CONFORM_ADMIN_USERNAME)',
      })
      .option('admin-password', {
        type: 'string',
        describe: 'admin password (env APIKIT_CONFORM_ADMIN_PASSWORD)',
      })
      .option('checks', {
        type: 'string',
        array: true,
        coerce: list,
        describe: 'checks to run, comma-separated or repeated (default: all; see --list-checks)',
      })
      .option('include', {
        type: 'string',
        array: true,
        coerce: list,
        describe: 'operationIds or tags to cover (default: all)',
      })
      .option('exclude', {
        type: 'string',
        array: true,
        coerce: list,
        describe: 'operationIds or tags to leave out',
      })
      .option('seed', {
        type: 'number',
        describe: 'seed of the generated data (default: random, printed)',
      })
      .option('max-examples', {
        type: 'number',
        default: 10,
        describe: 'generated positive cases per operation beyond the examples',
      })
      .option('concurrency', {
        type: 'number',
        default: DEFAULT_CONCURRENCY,
        describe: 'parallel requests',
      })
      .option('timeout', { type: 'number', default: 10_000, describe: 'per-request timeout, ms' })
      .option('rate-limit', { type: 'number', describe: 'at most this many requests a second' })
      .option('bail', { type: 'boolean', default: false, describe: 'stop at the first failure' })
      .option('allow-destructive', {
        type: 'boolean',
        default: false,
        describe: 'also call operations marked x-apikit-destructive (e.g. a data reset)',
      })
      .option('reporter', {
        type: 'string',
        array: true,
        choices: REPORTER_NAMES,
        default: ['console'],
        coerce: (values: unknown) => list(values) as ReporterName[],
        describe: 'console, json, junit or html; repeatable',
      })
      .option('output', {
        alias: 'o',
        type: 'string',
        describe:
          'file of the json/junit/html report (stdout without it); a directory when several',
      })
      .option('fuzz', {
        type: 'number',
        default: 0,
        describe:
          'after the checks, fuzz every operation with N generated and deliberately broken requests (0: off)',
      })
      .option('fuzz-only', {
        type: 'boolean',
        default: false,
        describe:
          'skip the normal checks: only the fuzz phase (and the response checks of its setup)',
      })
      .option('fuzz-concurrency', {
        type: 'number',
        default: DEFAULT_FUZZ_CONCURRENCY,
        describe: 'parallel connections of the fuzz phase (operations fuzzed side by side)',
      })
      .option('list-checks', {
        type: 'boolean',
        default: false,
        describe: 'print every check with its description and exit',
      })
      .check((a) => {
        if (a['list-checks']) return true;
        if (!a.baseUrl)
          throw new CliError(
            'name the API base URL, e.g. apikit conform http://127.0.0.1:3000/api/v1',
          );
        const integer = (name: keyof ConformArgs, min: number) => {
          const value = a[name];
          if (value !== undefined && (!Number.isInteger(value) || (value as number) < min))
            throw new CliError(`--${name} must be an integer >= ${min}`);
        };
        integer('seed', 0);
        integer('max-examples', 0);
        integer('concurrency', 1);
        integer('timeout', 1);
        integer('fuzz', 0);
        integer('fuzz-concurrency', 1);
        integer('wait-for-target', 1);
        if (!/^https?:\/\/[^/]/i.test(a.baseUrl))
          throw new CliError(
            `the base URL must be an http(s) URL, e.g. http://127.0.0.1:3000/api/v1 (got ${a.baseUrl})`,
          );
        parseHeaders(a.header);
        if (a['fuzz-only'] && !a.fuzz) throw new CliError('--fuzz-only needs --fuzz N (N >= 1)');
        if (a['fuzz-only'] && a.checks?.length)
          throw new CliError('--fuzz-only and --checks do not go together');
        const rate = a['rate-limit'];
        if (rate !== undefined && !(rate > 0)) throw new CliError('--rate-limit must be > 0');
        return true;
      }),
  handler: async (args) => {
    const registry = createDefaultRegistry();
    const fuzz = createFuzzChecks({
      perOperation: args.fuzz,
      concurrency: args['fuzz-concurrency'],
      timeoutMs: args.timeout,
    });
    registry.register(...fuzz.checks);
    if (args['list-checks']) {
      process.stdout.write(renderCheckList(registry.all()));
      return;
    }
    // Every option and output place is checked before the first request: a CI job learns of
    // a typo in a second, not after the whole run.
    const headers = parseHeaders(args.header);
    const auth = credentials(args, process.env);
    let plan;
    try {
      plan = planReportOutputs(args.reporter, args.output);
    } catch (error) {
      if (error instanceof ReportOutputError) throw new CliError(error.message);
      throw error;
    }
    await prepareOutputs(plan.outputs, plan.directory, args.output);
    const specPath = args.spec
      ? /^https?:\/\//i.test(args.spec)
        ? args.spec
        : await existingFile(args.spec)
      : undefined;

    if (args['wait-for-target'] !== undefined) {
      await waitForTarget(args.baseUrl as string, {
        timeoutMs: args['wait-for-target'] * 1000,
        headers,
        onWaiting: (line) => process.stderr.write(`conform: ${line}\n`),
      }).catch((error: Error) => {
        throw new CliError(error.message);
      });
    }

    // SIGINT/SIGTERM stop the run after the requests in flight; what ran is still reported
    // (marked partial), and cleanup deletes what the run created. A second signal quits.
    const interrupt = new AbortController();
    const onSignal = (signal: NodeJS.Signals) => {
      if (interrupt.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
      process.stderr.write(
        `\nconform: ${signal}: stopping after the requests in flight, cleaning up and writing the reports (again to quit now)\n`,
      );
      interrupt.abort(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);

    const seed = args.seed ?? Math.floor(Math.random() * 2 ** 31);
    const progress = createConsoleProgress(process.stderr);
    let waited429 = 0;
    const options: ConformanceOptions = {
      baseUrl: args.baseUrl as string,
      ...(specPath ? { specPath } : {}),
      ...(Object.keys(headers).length ? { headers } : {}),
      signal: interrupt.signal,
      ...auth,
      ...selectedChecks(args, registry.all()),
      ...(args.include?.length ? { include: args.include } : {}),
      ...(args.exclude?.length ? { exclude: args.exclude } : {}),
      seed,
      maxExamples: args['max-examples'],
      concurrency: args.concurrency,
      timeoutMs: args.timeout,
      ...(args['rate-limit'] ? { rateLimit: args['rate-limit'] } : {}),
      bail: args.bail,
      allowDestructive: args['allow-destructive'],
      registry,
      onProgress: (event) => {
        if (event.kind === 'wait') waited429++;
        progress(event);
      },
    };
    const fuzzing =
      args.fuzz > 0 ? ` --fuzz ${args.fuzz}${args['fuzz-only'] ? ' --fuzz-only' : ''}` : '';
    process.stderr.write(
      `conform: ${options.baseUrl} · seed ${seed} (repeat with --seed ${seed}${fuzzing})\n`,
    );
    let report: ConformanceReport;
    try {
      report = await runConformance(options);
    } catch (error) {
      if (error instanceof ConformanceSetupError) throw new CliError(error.message);
      throw error;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }

    const fuzzed = fuzz.outcome();
    // The JSON report carries the fuzz phase's numbers beside the run's summary.
    if (fuzzed) Object.assign(report.summary, { fuzz: fuzzed.stats });
    if (plan.console) {
      const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
      process.stdout.write(renderConsoleSummary(report, { color }));
      if (fuzzed) process.stdout.write(renderFuzzSummary(fuzzed.stats));
    } else if (fuzzed) process.stderr.write(renderFuzzSummary(fuzzed.stats));
    for (const output of plan.outputs) {
      const text = output.render(report);
      if (output.path === undefined) {
        process.stdout.write(text);
        continue;
      }
      await writeFile(output.path, text).catch((error: NodeJS.ErrnoException) => {
        throw new CliError(`cannot write ${output.path}: ${error.code ?? error.message}`);
      });
      process.stderr.write(`conform: wrote ${output.path}\n`);
    }
    const { pacedMs, rateLimits, incomplete } = report.summary;
    if (pacedMs)
      process.stderr.write(
        `conform: ${Math.round(pacedMs / 1000)} s of the run's ${Math.round(report.summary.durationMs / 1000)} s were spent waiting for the target's rate-limit windows (${rateLimits?.map((p) => `${p.policy || 'limit'} ${p.quota ?? '?'}/${p.windowSeconds ?? 60} s`).join(', ')}); ${waited429 ? `${waited429} 429 answer(s) were waited out all the same (another client sharing the budget?)` : 'no 429 had to be waited out'}\n`,
      );
    if (incomplete) {
      process.stderr.write(
        `conform: the run did not finish: ${incomplete}; the reports are partial\n`,
      );
      const signal = interrupt.signal.reason as string | undefined;
      process.exitCode = signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 2;
      return;
    }
    process.exitCode = report.summary.results.failed > 0 ? 1 : 0;
  },
};

/**
 * The checks to run: --checks as given; without --fuzz none of the fuzz checks (they are
 * registered only so --list-checks shows them); with --fuzz-only the fuzz checks and the
 * response checks (which judge the fixtures the fuzz phase creates).
 */
function selectedChecks(args: ConformArgs, all: Check[]): Partial<ConformanceOptions> {
  if (args.checks?.length)
    return {
      checks: args.fuzz > 0 ? [...new Set([...args.checks, ...FUZZ_CHECK_NAMES])] : args.checks,
    };
  const fuzz = new Set(FUZZ_CHECK_NAMES);
  const names = all
    .filter((c) => {
      if (fuzz.has(c.name)) return args.fuzz > 0;
      return !args['fuzz-only'] || c.kind === 'response';
    })
    .map((c) => c.name);
  return { checks: names };
}

/**
 * Options first, then the environment, so secrets need not be on the command line. A value
 * given but empty is named: `--password "$USER_PASSWORD"` with the variable unset arrives as
 * '' and must not read as a missing option.
 */
function credentials(args: ConformArgs, env: NodeJS.ProcessEnv): Partial<ConformanceOptions> {
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

/**
 * Makes sure every report can be written before the run starts: the directory is created
 * (with its parents), an `--output` ending in `/` or naming a directory takes the reporter's
 * file name in it, and a file where a directory must be (or the reverse), or a place that
 * cannot be written, is an exit 2 up front rather than after the run.
 */
async function prepareOutputs(
  outputs: { reporter: keyof typeof FILE_REPORTERS; path: string | undefined }[],
  directory: string | undefined,
  output: string | undefined,
): Promise<void> {
  const kind = async (path: string) => {
    const found = await stat(path).catch(() => undefined);
    return found === undefined ? 'absent' : found.isDirectory() ? 'directory' : 'file';
  };
  const makeDirectory = async (path: string) => {
    if ((await kind(path)) === 'file')
      throw new CliError(
        `--output ${output}: ${path} is a file, but the reports need a directory there`,
      );
    await mkdir(path, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
      throw new CliError(
        `--output ${output}: cannot create the directory ${path}: ${error.code ?? error.message}`,
      );
    });
  };
  if (directory !== undefined) await makeDirectory(directory);
  for (const output of outputs) {
    if (output.path === undefined) continue;
    if (directory === undefined) {
      if (/[\\/]$/.test(output.path) || (await kind(output.path)) === 'directory') {
        await makeDirectory(output.path);
        output.path = join(output.path, FILE_REPORTERS[output.reporter].fileName);
      } else await makeDirectory(dirname(output.path));
    }
    const found = await kind(output.path);
    if (found === 'directory')
      throw new CliError(
        `cannot write the ${output.reporter} report to ${output.path}: it is a directory`,
      );
    await access(found === 'file' ? output.path : dirname(output.path), constants.W_OK).catch(
      (error: NodeJS.ErrnoException) => {
        throw new CliError(
          `cannot write the ${output.reporter} report to ${output.path}: ${error.code ?? error.message}`,
        );
      },
    );
  }
}

/** A --spec file that exists (a typo fails before the run, not in the parser). */
async function existingFile(path: string): Promise<string> {
  const absolute = resolve(path);
  const found = await stat(absolute).catch(() => undefined);
  if (!found?.isFile()) throw new CliError(`--spec ${path}: no such file`);
  return absolute;
}

/** Header names are HTTP tokens; a value may not hold CR, LF or NUL. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * `-H 'Name: value'` as a header record. Authorization is refused: the runner sends its own
 * tokens and must be able to leave them off to probe authentication (use --token).
 */
function parseHeaders(values: string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const raw of values ?? []) {
    const at = raw.indexOf(':');
    const name = at > 0 ? raw.slice(0, at).trim() : '';
    const value = at > 0 ? raw.slice(at + 1).trim() : '';
    if (!TOKEN.test(name))
      throw new CliError(
        `--header ${JSON.stringify(raw)}: expected 'Name: value', e.g. -H 'X-Api-Key: abc123'`,
      );
    if (/[\r\n\0]/.test(value))
      throw new CliError(`--header ${name}: the value may not contain CR, LF or NUL`);
    if (value === '')
      throw new CliError(`--header ${name}: the value is empty (an unset shell variable?)`);
    if (name.toLowerCase() === 'authorization')
      throw new CliError(
        '--header Authorization: use --token (or --username/--password): the runner sends its own tokens and leaves them off to probe authentication',
      );
    headers[name] = value;
  }
  return headers;
}

function renderCheckList(checks: Check[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  return checks.map((c) => `${c.name.padEnd(width)}  ${c.description}\n`).join('');
}
