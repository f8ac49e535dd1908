import type { CommandModule } from 'yargs';
import { CliError } from '../cli-error.js';

interface ServeArgs {
  port: number;
  host: string;
  db: string;
  memory: boolean;
  data: 'demo' | 'empty';
  'jwt-secret'?: string;
  'rate-limit': number;
  'login-rate-limit': number;
  'cors-origin'?: string[];
  'log-format': 'json' | 'off';
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
      .option('data', {
        choices: ['demo', 'empty'] as const,
        default: 'demo' as const,
        describe: 'seed of a new store: the demo data set, or only the two login accounts',
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
      .option('log-format', {
        choices: ['json', 'off'] as const,
        default: 'json' as const,
        describe: 'request log lines on stderr',
      })
      .check((a) => {
        if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535)
          throw new Error('--port must be 0-65535');
        if (a['rate-limit'] < 0 || a['login-rate-limit'] < 0)
          throw new Error('rate limits must be >= 0');
        return true;
      }),
  handler: async (args) => {
    // Imported here, not at the top: every other command (and --help) starts without the
    // server's modules, and `serve` loads them while nothing else is going on.
    const [
      { createServer },
      { DEMO_ADMIN_PASSWORD, DEMO_USER_PASSWORD, ServerConfigError },
      { batchedLines },
      { boundHeapGrowth },
    ] = await Promise.all([
      import('../../reference-server/create-server.js'),
      import('../../reference-server/server-config.js'),
      import('../../reference-server/http/batched-lines.js'),
      import('../../reference-server/node/heap-growth.js'),
    ]);
    // The whole store lives in this heap: its footprint should follow the data (decision 0039).
    boundHeapGrowth();
    let log: ((line: object) => void) | undefined;
    if (args['log-format'] === 'json') {
      // One write to stderr per turn of the event loop, not per request; the rest on exit.
      const lines = batchedLines((text) => process.stderr.write(text));
      process.on('exit', lines.flush);
      log = (line) => lines.write(JSON.stringify(line) + '\n');
    }
    let server;
    try {
      server = await createServer({
        port: args.port,
        host: args.host,
        dbFile: args.db,
        memory: args.memory,
        data: args.data,
        rateLimit: args['rate-limit'],
        loginRateLimit: args['login-rate-limit'],
        ...(args['jwt-secret'] ? { jwtSecret: args['jwt-secret'] } : {}),
        ...(args['cors-origin']?.length ? { corsOrigins: args['cors-origin'] } : {}),
        ...(log ? { log } : {}),
      });
    } catch (error) {
      if (error instanceof ServerConfigError) throw new CliError(error.message);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new CliError(`port ${args.port} on ${args.host} is in use; try --port 0`);
      if (code === 'EACCES')
        throw new CliError(`no permission to listen on ${args.host}:${args.port}`);
      throw error;
    }
    for (const warning of server.config.warnings) console.error(`warning: ${warning}`);
    const { url, config } = server;
    const demo = config.adminPassword === DEMO_ADMIN_PASSWORD;
    console.log(
      [
        `apikit reference server listening on ${url}`,
        `  API:     ${url}/api/v1`,
        `  Docs:    ${url}/docs`,
        `  Store:   ${config.dbFile ?? 'in memory'} (${config.data} data)`,
        `  Log in:  curl -s ${url}/api/v1/auth/login -H 'Content-Type: application/json' \\`,
        `             -d '{"username":"admin@example.com","password":"${demo ? DEMO_ADMIN_PASSWORD : '$APIKIT_ADMIN_PASSWORD'}"}'`,
        `           (or user@example.com / ${config.userPassword === DEMO_USER_PASSWORD ? DEMO_USER_PASSWORD : '$APIKIT_USER_PASSWORD'})`,
      ].join('\n'),
    );
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        console.error(`${signal}: draining in-flight requests, then closing the store`);
        server.close().then(resolve, resolve);
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
  },
};
