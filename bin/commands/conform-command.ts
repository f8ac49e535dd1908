import { mkdir, stat, writeFile } from 'node:fs/promises';
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
        describe: 'OpenAPI description (default: the bundled contract)',
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
    let plan;
    try {
      plan = planReportOutputs(args.reporter, args.output);
    } catch (error) {
      if (error instanceof ReportOutputError) throw new CliError(error.message);
      throw error;
    }
    await prepareOutputs(plan.outputs, plan.directory);

    const seed = args.seed ?? Math.floor(Math.random() * 2 ** 31);
    const options: ConformanceOptions = {
      baseUrl: args.baseUrl as string,
      ...(args.spec ? { specPath: resolve(args.spec) } : {}),
      ...credentials(args, process.env),
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
      onProgress: createConsoleProgress(process.stderr),
    };
    const fuzzing =
      args.fuzz > 0 ? ` --fuzz ${args.fuzz}${args['fuzz-only'] ? ' --fuzz-only' : ''}` : '';
    process.stderr.write(
      `conform: ${options.baseUrl} · seed ${seed} (repeat with --seed ${seed}${fuzzing})\n`,
    );
    const report = await runConformance(options).catch((error: unknown) => {
      if (error instanceof ConformanceSetupError) throw new CliError(error.message);
      throw error;
    });

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

/** Options first, then the environment, so secrets need not be on the command line. */
function credentials(args: ConformArgs, env: NodeJS.ProcessEnv): Partial<ConformanceOptions> {
  const token = args.token ?? env.APIKIT_CONFORM_TOKEN;
  const username = args.username ?? env.APIKIT_CONFORM_USERNAME;
  const password = args.password ?? env.APIKIT_CONFORM_PASSWORD;
  const adminUsername = args['admin-username'] ?? env.APIKIT_CONFORM_ADMIN_USERNAME;
  const adminPassword = args['admin-password'] ?? env.APIKIT_CONFORM_ADMIN_PASSWORD;
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

/** Creates the report directory (or the file's parent) before the run, so a typo fails fast. */
async function prepareOutputs(
  outputs: { reporter: keyof typeof FILE_REPORTERS; path: string | undefined }[],
  directory: string | undefined,
): Promise<void> {
  try {
    if (directory !== undefined) {
      await mkdir(directory, { recursive: true });
      return;
    }
    for (const output of outputs) {
      if (output.path === undefined) continue;
      const existing = await stat(output.path).catch(() => undefined);
      if (existing?.isDirectory())
        output.path = join(output.path, FILE_REPORTERS[output.reporter].fileName);
      else await mkdir(dirname(output.path), { recursive: true });
    }
  } catch (error) {
    throw new CliError(`cannot create the report's place: ${(error as Error).message}`);
  }
}

function renderCheckList(checks: Check[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  return checks.map((c) => `${c.name.padEnd(width)}  ${c.description}\n`).join('');
}
