import type { Argv } from 'yargs';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_FUZZ_CONCURRENCY,
  REPORTER_NAMES,
  type ReporterName,
} from '../../conformance/index.js';
import { CliError } from '../cli-error.js';

export interface ConformArgs {
  baseUrl: string | undefined;
  spec: string | undefined;
  token: string | undefined;
  username: string | undefined;
  password: string | undefined;
  'admin-username': string | undefined;
  'admin-password': string | undefined;
  checks: string[] | undefined;
  'exclude-checks': string[] | undefined;
  include: string[] | undefined;
  exclude: string[] | undefined;
  seed: number | undefined;
  'max-examples': number;
  concurrency: number;
  timeout: number;
  'rate-limit': number | undefined;
  bail: boolean;
  'allow-destructive': boolean;
  'provoke-rate-limits': boolean;
  reporter: ReporterName[];
  output: string | undefined;
  baseline: string | undefined;
  'update-baseline': boolean;
  'list-checks': boolean;
  fuzz: number;
  'fuzz-only': boolean;
  'fuzz-concurrency': number;
  header: string[] | undefined;
  'wait-for-target': number | undefined;
  interactions: string | undefined;
}

/** `--checks a,b --checks c` and `--checks a --checks b,c` both mean [a, b, c]. */
const list = (values: unknown) =>
  (Array.isArray(values) ? values : [values])
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter(Boolean);

/** The options of `apikit conform`, in the order `--help` lists them, checked before the run. */
export function conformOptions(y: Argv) {
  return outputOptions(
    selectionOptions(
      targetOptions(
        y.positional('baseUrl', {
          type: 'string',
          describe: 'the API base URL, e.g. http://127.0.0.1:3000/api/v1',
        }),
      ),
    ),
  ).check((a) => validateConformArgs(a));
}

/** Where the target is, what to hold it to, and how to sign in. */
function targetOptions<T>(y: Argv<T>) {
  return y
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
    });
}

/** What the run covers and how hard it pushes. */
function selectionOptions<T>(y: Argv<T>) {
  return y
    .option('interactions', {
      type: 'string',
      describe:
        "a frontend's recording (APIKIT_RECORD=FILE in its tests): replay each interaction and judge the answers against what the mocks answered; alone, the run is that replay (add --checks for more)",
    })
    .option('checks', {
      type: 'string',
      array: true,
      coerce: list,
      describe:
        'checks to run, comma-separated or repeated (default: all; see --list-checks; a fuzz_* check brings --fuzz 10)',
    })
    .option('exclude-checks', {
      type: 'string',
      array: true,
      coerce: list,
      describe: 'checks to leave out (operation_implemented too), comma-separated or repeated',
    })
    .option('include', {
      type: 'string',
      array: true,
      coerce: list,
      describe:
        "operationIds, tags or path globs to cover ('/users/*', 'GET /users/**'; default: all); nothing else is called",
    })
    .option('exclude', {
      type: 'string',
      array: true,
      coerce: list,
      describe: 'operationIds, tags or path globs to leave out',
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
      describe:
        'also call operations marked x-apikit-destructive (e.g. a data reset), and let checks block or promote the given accounts (restoring them)',
    })
    .option('provoke-rate-limits', {
      type: 'boolean',
      default: false,
      describe:
        "last, spend the target's login budget to see its 429 (nobody at this address can log in until the window ends)",
    });
}

/** Reports, the fuzz phase, and the list of checks. */
function outputOptions<T>(y: Argv<T>) {
  return y
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
      describe: 'file of the json/junit/html report (stdout without it); a directory when several',
    })
    .option('baseline', {
      type: 'string',
      describe:
        'JSON file of known failures: fail only on failures not in it, and list those fixed since',
    })
    .option('update-baseline', {
      type: 'boolean',
      default: false,
      describe:
        "write this run's failures to the --baseline file (exit 0 unless the run broke off)",
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
    });
}

/** Refuses what cannot run, before the first request (exit 2 with a fix). */
function validateConformArgs(a: ConformArgs): true {
  if (a['list-checks']) return true;
  if (!a.baseUrl)
    throw new CliError('name the API base URL, e.g. apikit conform http://127.0.0.1:3000/api/v1');
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
  if (a.interactions !== undefined && a.interactions.trim() === '')
    throw new CliError('--interactions is empty (an unset shell variable?)');
  if (a.interactions !== undefined && a['fuzz-only'])
    throw new CliError('--interactions and --fuzz-only do not go together');
  if (a['fuzz-only'] && a.checks?.length)
    throw new CliError('--fuzz-only and --checks do not go together');
  if (a.baseline !== undefined && a.baseline.trim() === '')
    throw new CliError('--baseline is empty (an unset shell variable?)');
  if (a['update-baseline'] && !a.baseline)
    throw new CliError('--update-baseline needs --baseline FILE (the file to write)');
  if (a.baseline !== undefined && a.bail)
    throw new CliError(
      '--bail stops at the first failure, known or not: it does not go with --baseline',
    );
  const rate = a['rate-limit'];
  if (rate !== undefined && !(rate > 0)) throw new CliError('--rate-limit must be > 0');
  return true;
}

/** Header names are HTTP tokens; a value may not hold CR, LF or NUL. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * `-H 'Name: value'` as a header record. Authorization is refused: the runner sends its own
 * tokens and must be able to leave them off to probe authentication (use --token).
 */
export function parseHeaders(values: string[] | undefined): Record<string, string> {
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
