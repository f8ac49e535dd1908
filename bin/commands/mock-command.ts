import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import type { Latency } from '../../mocks/create-mock-api.js';
import { specPath as bundledSpecPath } from '../../spec/spec-path.js';
import { CliError } from '../cli-error.js';
import { listenError } from '../listen-error.js';
import { requirePeer } from '../optional-peer.js';
import { untilStopRequested } from '../stop-requests.js';
import { loginHint } from './login-hint.js';
import { readOwnData } from './read-own-data.js';

interface MockArgs {
  engine: 'msw' | 'prism';
  port: number;
  host: string;
  latency?: string;
  data?: string;
  auth?: 'enforce' | 'off';
  'jwt-secret'?: string;
  dynamic?: boolean;
  spec?: string;
}

/**
 * `apikit mock`: the MSW handlers (the reference server's pipeline on an in-memory store) over
 * HTTP, or `--engine prism`: Prism's spec-only mock. Runs until SIGINT/SIGTERM.
 */
export const mockCommand: CommandModule<object, MockArgs> = {
  command: 'mock',
  describe:
    'Serve the mock API over HTTP: the stateful MSW mocks (default) or a spec-only Prism mock',
  builder: (y) =>
    y
      .option('engine', {
        choices: ['msw', 'prism'] as const,
        default: 'msw' as const,
        describe: 'msw: stateful, behaves like the reference server; prism: answers from the spec',
      })
      .option('port', {
        alias: 'p',
        type: 'number',
        default: Number(process.env.PORT ?? 3000),
        describe: 'port (0 picks a free one)',
      })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to bind' })
      .option('latency', {
        type: 'string',
        describe: 'delay of every answer: MS, or MIN-MAX drawn per request (msw only)',
      })
      .option('data', {
        type: 'string',
        describe:
          'seed and what reset restores: demo (default), empty (only the two login accounts), or a JSON data set FILE (docs/data-format.md), checked against the contract first (msw only)',
      })
      .option('auth', {
        choices: ['enforce', 'off'] as const,
        describe: 'off: requests without a token act as the admin (default enforce; msw only)',
      })
      .option('jwt-secret', {
        type: 'string',
        describe:
          'HS256 signing secret, >= 32 bytes (default: APIKIT_JWT_SECRET, else random per start; msw only)',
      })
      .option('dynamic', {
        type: 'boolean',
        describe: 'generate bodies from the schemas instead of the examples (prism only)',
      })
      .option('spec', {
        type: 'string',
        describe: 'OpenAPI description to mock (prism only; default: the bundled contract)',
      })
      .check((a) => {
        if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535)
          throw new Error('--port must be 0-65535');
        if (a.latency !== undefined) parseLatency(a.latency);
        const only = (engine: string, names: (keyof MockArgs)[]) => {
          const given = names.filter((n) => a[n] !== undefined);
          if (a.engine !== engine && given.length > 0)
            throw new Error(`--${given.join(', --')} only applies to --engine ${engine}`);
        };
        only('msw', ['latency', 'data', 'auth', 'jwt-secret']);
        only('prism', ['dynamic', 'spec']);
        return true;
      }),
  handler: async (args) => {
    const running = args.engine === 'prism' ? await startPrismMock(args) : await startMsw(args);
    // SIGINT, SIGTERM, or the npx above gone (decision 0099); the same signal again quits.
    const { reason } = await untilStopRequested();
    console.error(`${reason}: stopping the mock`);
    await running.close().catch(() => {});
  },
};

async function startMsw(args: MockArgs): Promise<{ close(): Promise<void> }> {
  // Loaded on use: the MSW mocks, the pipeline and Prism are not what other commands need.
  const [{ startMockServer }, serverConfig] = await Promise.all([
    import('../../mocks/server/start-mock-server.js'),
    import('../../node-runtime/server-config.js'),
  ]);
  const { DEMO_ADMIN_PASSWORD, DEMO_USER_PASSWORD } = serverConfig;
  // As for `serve`: a data set FILE is checked before anything listens (exit 2, every problem).
  const data = args.data ?? 'demo';
  const own = data === 'demo' || data === 'empty' ? undefined : await readOwnData(data);
  let server;
  try {
    server = await startMockServer({
      port: args.port,
      host: args.host,
      auth: args.auth ?? 'enforce',
      data: own?.seed ?? (data as 'demo' | 'empty'),
      ...(args.latency !== undefined ? { latency: parseLatency(args.latency) } : {}),
      ...(args['jwt-secret'] ? { jwtSecret: args['jwt-secret'] } : {}),
    });
  } catch (error) {
    throw mswStartError(error, args, serverConfig);
  }
  for (const warning of server.config.warnings) console.error(`warning: ${warning}`);
  const { url, config } = server;
  const latency = args.latency ? `, latency ${args.latency} ms` : '';
  console.log(
    [
      `apikit mock (MSW handlers) listening on ${url}`,
      `  API:     ${url}/api/v1`,
      `  Docs:    ${url}/docs`,
      `  Store:   in memory (${own ? `data from ${data}` : `${data} data`}; gone on stop), auth ${args.auth === 'off' ? 'off (no token = admin)' : 'enforced'}${latency}`,
      ...loginHint({
        url,
        own: own && { file: data, logins: own.logins },
        demoAdminPassword:
          config.adminPassword === DEMO_ADMIN_PASSWORD ? DEMO_ADMIN_PASSWORD : undefined,
        demoUserPassword:
          config.userPassword === DEMO_USER_PASSWORD ? DEMO_USER_PASSWORD : undefined,
      }),
      `  Canned:  send 'Prefer: code=404' (or example=NAME, dynamic=true) for a documented or generated answer instead`,
    ].join('\n'),
  );
  return server;
}

async function startPrismMock(args: MockArgs): Promise<{ close(): Promise<void> }> {
  const specPath = args.spec ? resolve(args.spec) : bundledSpecPath;
  if (!existsSync(specPath)) throw new CliError(`no such spec file: ${args.spec}`);
  requirePeer('@stoplight/prism-cli', 'apikit mock --engine prism');
  const [{ PrismStartError }, { startPrismMock }] = await Promise.all([
    import('../../node-runtime/start-prism.js'),
    import('../../mocks/prism/start-prism-mock.js'),
  ]);
  let mock;
  try {
    mock = await startPrismMock({
      specPath,
      host: args.host,
      port: args.port,
      dynamic: args.dynamic ?? false,
    });
  } catch (error) {
    if (error instanceof PrismStartError) throw new CliError(error.message);
    const unlistened = listenError(error, args);
    if (unlistened) throw unlistened;
    if (error instanceof Error)
      throw new CliError(`cannot mock ${specPath}: ${error.message.split('\n')[0]}`);
    throw error;
  }
  const { url } = mock;
  console.log(
    [
      `apikit mock (Prism, ${args.dynamic ? 'dynamic: bodies generated from the schemas' : 'static: the examples'}) listening on ${url}`,
      `  Spec:    ${specPath}`,
      mock.basePath === '/api/v1'
        ? `  API:     ${url}/api/v1 (as the reference server and the MSW engine; /api is an alias)`
        : `  API:     ${url}${mock.basePath} (the base path of the description's first server)`,
      `  Docs:    ${url}/docs`,
      `  Auth:    any 'Authorization: Bearer <anything>' passes; nothing is stored`,
      `  Errors:  a request the spec forbids gets the contract's problem (400 with errors[], 401 without a token)`,
      `  Canned:  send 'Prefer: code=404' (or example=NAME, dynamic=true) for another documented answer`,
    ].join('\n'),
  );
  return mock;
}

/** `250` or `100-300` (ms). */
export function parseLatency(text: string): Latency {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  if (!match) throw new Error(`--latency must be MS or MIN-MAX in ms, e.g. 200 or 100-300`);
  const min = Number(match[1]);
  if (match[2] === undefined) return min;
  const max = Number(match[2]);
  if (max < min) throw new Error(`--latency ${text}: MIN must not exceed MAX`);
  return [min, max];
}

function mswStartError(
  error: unknown,
  args: MockArgs,
  { ServerConfigError, isLoopback }: typeof import('../../node-runtime/server-config.js'),
): unknown {
  if (error instanceof ServerConfigError) {
    // The same rule as `apikit serve`: documented passwords only where nobody else can reach.
    return new CliError(
      isLoopback(args.host)
        ? error.message
        : `${error.message} (or bind a loopback address, e.g. --host 127.0.0.1)`,
    );
  }
  return listenError(error, args) ?? error;
}
