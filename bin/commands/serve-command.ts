import type { CommandModule } from 'yargs';
import { CliError } from '../cli-error.js';
import { listenError } from '../listen-error.js';
import { DEFAULT_DRAIN_DELAY_SECONDS } from '../../node-runtime/drain-server.js';
import { untilStopRequested } from '../stop-requests.js';
import { DATABASE_WAIT_DEFAULT_SECONDS, waitForDatabase } from './database-wait.js';
import { loginHint } from './login-hint.js';
import { readOwnData } from './read-own-data.js';

interface ServeArgs {
  port: number;
  host: string;
  db: string;
  memory: boolean;
  'database-url'?: string;
  'database-pool': number;
  'database-wait': number;
  data: string;
  'jwt-secret'?: string;
  'rate-limit': number;
  'login-rate-limit': number;
  'cors-origin'?: string[];
  'trust-proxy'?: string;
  'log-format'?: 'pretty' | 'json' | 'off';
  'log-level': 'error' | 'warn' | 'info';
  'drain-delay': number;
}

/** PostgreSQL's URL as it may be printed, when it is the store (the flag, else DATABASE_URL). */
function databaseUrlOf(args: ServeArgs, redact: (url: string) => string): string | undefined {
  const url = args['database-url'] ?? (args.memory ? undefined : process.env.DATABASE_URL);
  return url ? redact(url) : undefined;
}

/** `apikit serve`: the reference server on the JSON store (or memory), until SIGINT/SIGTERM. */
export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe:
    'Run the reference server (Express 5, lowdb JSON store) implementing the whole contract',
  builder: (y) =>
    y
      .option('port', {
        alias: 'p',
        type: 'number',
        default: Number(process.env.PORT ?? 3000),
        describe: 'port (0 picks a free one)',
      })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to bind' })
      .option('db', {
        type: 'string',
        default: 'data/db.json',
        describe: 'JSON store file (created with the seed data when missing)',
      })
      .option('memory', {
        type: 'boolean',
        default: false,
        describe: 'keep the store in memory instead of a file',
      })
      .option('database-url', {
        type: 'string',
        describe:
          'PostgreSQL as the store (postgres://user:password@host:5432/db; default: DATABASE_URL): several instances may share it (docs/deploy.md)',
      })
      .option('database-pool', {
        type: 'number',
        default: 10,
        describe: 'connections this instance keeps to PostgreSQL at most',
      })
      .option('database-wait', {
        type: 'number',
        default: DATABASE_WAIT_DEFAULT_SECONDS,
        describe:
          'seconds to wait at start for PostgreSQL to accept connections before exiting 2 (0: try once)',
      })
      .option('data', {
        type: 'string',
        default: 'demo',
        describe:
          'seed of a new store and of /admin/reset: demo, empty (only the two login accounts), or a JSON data set FILE (docs/data-format.md), checked against the contract first',
      })
      .option('jwt-secret', {
        type: 'string',
        describe:
          'HS256 signing secret, >= 32 bytes (default: APIKIT_JWT_SECRET, else random per start)',
      })
      .option('rate-limit', {
        type: 'number',
        default: 1000,
        describe: 'requests a minute per client; 0 turns limiting off',
      })
      .option('login-rate-limit', {
        type: 'number',
        default: 20,
        describe: 'login attempts a minute per address; 0 turns it off',
      })
      .option('cors-origin', {
        type: 'string',
        array: true,
        describe: 'allowed CORS origin (repeatable; default: any)',
      })
      .option('trust-proxy', {
        type: 'string',
        describe:
          "proxies whose X-Forwarded-For names the client, for rate limits: 'loopback', addresses or CIDRs, or a hop count (default: APIKIT_TRUST_PROXY, else none)",
      })
      .option('log-format', {
        choices: ['pretty', 'json', 'off'] as const,
        describe:
          'log lines on stderr: pretty (default on a terminal), json lines (default otherwise), or off',
      })
      .option('log-level', {
        choices: ['error', 'warn', 'info'] as const,
        default: 'info' as const,
        describe: 'least severe lines written: info has one line per request',
      })
      .option('drain-delay', {
        type: 'number',
        default: drainDelayDefault(),
        describe:
          'seconds to keep serving after SIGTERM, /readyz answering 503, before draining (default: APIKIT_DRAIN_DELAY, else 5; SIGINT drains at once)',
      })
      .check((a) => {
        if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535)
          throw new Error('--port must be 0-65535');
        if (a['rate-limit'] < 0 || a['login-rate-limit'] < 0)
          throw new Error('rate limits must be >= 0');
        if (!Number.isInteger(a['database-pool']) || a['database-pool'] < 1)
          throw new Error('--database-pool must be a whole number >= 1');
        if (!(a['database-wait'] >= 0)) throw new Error('--database-wait must be >= 0');
        if (!(a['drain-delay'] >= 0 && a['drain-delay'] <= 300))
          throw new Error('--drain-delay must be 0-300 seconds');
        if (a['database-url'] !== undefined && a.memory)
          throw new Error('--memory and --database-url choose two different stores: pick one');
        return true;
      }),
  handler: async (args) => {
    // Imported here, not at the top: every other command (and --help) starts without the
    // server's modules, and `serve` loads them while nothing else is going on.
    const [
      { createServer },
      { DEMO_ADMIN_PASSWORD, DEMO_USER_PASSWORD, ServerConfigError, redactUrl },
      { requestLog },
      { boundHeapGrowth },
    ] = await Promise.all([
      import('../../reference-server/create-server.js'),
      import('../../node-runtime/server-config.js'),
      import('../../reference-server/http/request-log.js'),
      import('../../node-runtime/heap-growth.js'),
    ]);
    // A data set FILE is read and checked before anything else: a bad one is exit 2 with every
    // problem listed, and no store file is created or touched (decision 0047).
    const own =
      args.data === 'demo' || args.data === 'empty' ? undefined : await readOwnData(args.data);
    // The whole store lives in this heap: its footprint should follow the data (decision 0039).
    if (!args['database-url'] && !process.env.DATABASE_URL) boundHeapGrowth();
    // Readable at a terminal, JSON lines for a collector; one write to stderr per turn of the
    // event loop, not per request; the rest on exit (decision 0057).
    const requestLines = requestLog({
      format: args['log-format'] ?? (process.stderr.isTTY ? 'pretty' : 'json'),
      level: args['log-level'],
    });
    process.on('exit', requestLines.flush);
    const log = requestLines.write;
    let server;
    try {
      const start = () =>
        createServer({
          port: args.port,
          host: args.host,
          dbFile: args.db,
          memory: args.memory,
          ...(args['database-url'] ? { databaseUrl: args['database-url'] } : {}),
          databasePoolSize: args['database-pool'],
          data: own?.seed ?? (args.data as 'demo' | 'empty'),
          rateLimit: args['rate-limit'],
          loginRateLimit: args['login-rate-limit'],
          ...(args['jwt-secret'] ? { jwtSecret: args['jwt-secret'] } : {}),
          ...(args['cors-origin']?.length ? { corsOrigins: args['cors-origin'] } : {}),
          ...(args['trust-proxy'] ? { trustProxy: args['trust-proxy'] } : {}),
          ...(log ? { log } : {}),
        });
      server = await waitForDatabase(start, {
        redactedUrl: databaseUrlOf(args, redactUrl),
        waitSeconds: args['database-wait'],
        say: (line) => console.error(`apikit: ${line}`),
      });
    } catch (error) {
      if (error instanceof ServerConfigError) throw new CliError(error.message);
      throw listenError(error, args) ?? error;
    }
    for (const warning of server.config.warnings) console.error(`warning: ${warning}`);
    for (const email of server.passwordsRotated)
      console.error(
        `apikit: ${email} now logs in with its configured password (the store held another; its refresh tokens are revoked)`,
      );
    const { url, config } = server;
    if (own && !server.seeded) {
      console.error(
        config.databaseUrl
          ? `warning: the database already holds data and keeps it: --data ${args.data} seeds only a new database (and POST /admin/reset)`
          : `warning: ${config.dbFile} already exists and is kept: --data ${args.data} seeds only a new store (and POST /admin/reset); delete the file or use --memory to start from it`,
      );
    }
    if (own && own.logins.length === 0) {
      console.error(
        `warning: no user in ${args.data} has a password, so nobody can log in (give the ADMIN one)`,
      );
    }
    const where = config.databaseUrl
      ? `PostgreSQL ${redactUrl(config.databaseUrl)}`
      : (config.dbFile ?? 'in memory');
    const store = `${where} (${storeWords(server, own ? `data from ${args.data}` : `${args.data} data`)})`;
    console.log(
      [
        `apikit reference server listening on ${url}`,
        `  API:     ${url}/api/v1`,
        `  Docs:    ${url}/docs`,
        `  Store:   ${store}`,
        `  Limits:  ${limitsLine(config.rateLimit, config.loginRateLimit)}`,
        ...loginHint({
          url,
          own: own && { file: args.data, logins: own.logins },
          demoAdminPassword:
            config.adminPassword === DEMO_ADMIN_PASSWORD ? DEMO_ADMIN_PASSWORD : undefined,
          demoUserPassword:
            config.userPassword === DEMO_USER_PASSWORD ? DEMO_USER_PASSWORD : undefined,
        }),
      ].join('\n'),
    );
    // SIGINT, SIGTERM, or the npx above gone (decision 0099); the same signal again quits.
    const { reason, signal } = await untilStopRequested();
    if (signal === 'SIGTERM') await drainDelay(server, reason, args['drain-delay']);
    console.error(`${reason}: draining in-flight requests, then closing the store`);
    await server.close().catch(() => {});
  },
};

/**
 * What the store holds, in the banner's words: "seeded demo data: 3 users, 5 orders" only when
 * this start seeded it; "kept data: 12 users" for a file or database it found and keeps
 * (whatever seeded it, and whatever changed since).
 */
export function storeWords(
  server: { seeded: boolean; holds: { users: number; orders?: number } },
  seed: string,
): string {
  const { users, orders } = server.holds;
  const counts = `${count(users, 'user')}${orders === undefined ? '' : `, ${count(orders, 'order')}`}`;
  return server.seeded ? `seeded ${seed}: ${counts}` : `kept data: ${counts}`;
}

const count = (n: number, what: string) =>
  `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;

/**
 * A balancer's moment to notice a SIGTERM (decision 0111): `/readyz` answers 503 and every
 * answer closes its connection, while requests are still served for `seconds`.
 */
async function drainDelay(
  server: { stopReadiness(): void },
  reason: string,
  seconds: number,
): Promise<void> {
  if (seconds <= 0) return;
  server.stopReadiness();
  console.error(`${reason}: /readyz answers 503; serving ${seconds} s more (--drain-delay)`);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}

/** `--drain-delay`'s default: APIKIT_DRAIN_DELAY when it is a number of seconds, else 5. */
function drainDelayDefault(): number {
  const set = process.env.APIKIT_DRAIN_DELAY;
  const seconds = set === undefined || set.trim() === '' ? NaN : Number(set);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : DEFAULT_DRAIN_DELAY_SECONDS;
}

/** The banner's rate-limit line: what a client of this server may spend (decision 0100). */
function limitsLine(perMinute: number, loginPerMinute: number): string {
  const policy = (n: number, what: string) => (n > 0 ? `${n} ${what}` : `no limit on ${what}`);
  return `${policy(perMinute, 'requests')} and ${policy(loginPerMinute, 'login attempts')} a minute (--rate-limit, --login-rate-limit)`;
}
