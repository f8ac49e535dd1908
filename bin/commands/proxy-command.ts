import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { specPath as bundledSpecPath } from '../../spec/spec-path.js';
import { CliError } from '../cli-error.js';
import { requirePeer } from '../optional-peer.js';

interface ProxyArgs {
  targetUrl: string;
  port: number;
  host: string;
  spec?: string;
}

/**
 * `apikit proxy <targetUrl>`: Prism's validation proxy in front of a live backend; every
 * contract violation of a request or an answer passing through is printed as one line on
 * stdout. Runs until SIGINT/SIGTERM.
 */
export const proxyCommand: CommandModule<object, ProxyArgs> = {
  command: 'proxy <targetUrl>',
  describe:
    'Validate live traffic: a proxy in front of a backend that prints every contract violation',
  builder: (y) =>
    y
      .positional('targetUrl', {
        type: 'string',
        demandOption: true,
        describe:
          "the backend's origin (API under /api/v1), e.g. http://127.0.0.1:3000, or its API base URL",
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
      .check((a) => {
        if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535)
          throw new Error('--port must be 0-65535');
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
    // Loaded on use, so that other commands start without Prism.
    const [{ PrismStartError }, { formatViolation, startValidationProxy }] = await Promise.all([
      import('../../mocks/prism/start-prism.js'),
      import('../../mocks/server/start-validation-proxy.js'),
    ]);
    let proxy;
    try {
      proxy = await startValidationProxy({
        target: args.targetUrl,
        specPath,
        port: args.port,
        host: args.host,
        onViolation: (violation) => console.log(formatViolation(violation)),
      });
    } catch (error) {
      if (error instanceof PrismStartError) throw new CliError(error.message);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new CliError(`port ${args.port} on ${args.host} is in use; try --port 0`);
      if (code === 'EACCES')
        throw new CliError(`no permission to listen on ${args.host}:${args.port}`);
      throw error;
    }
    console.log(
      [
        `apikit proxy (Prism validation proxy) listening on ${proxy.url}`,
        `  API:     ${proxy.url}/api/v1 -> ${proxy.upstream} (validated against ${specPath})`,
        `  Other:   every other path goes straight to ${new URL(args.targetUrl).origin}, unvalidated`,
        `  Output:  one line per violation: violation: METHOD PATH -> STATUS: where: what`,
      ].join('\n'),
    );
    await new Promise<void>((done) => {
      const stop = (signal: string) => {
        console.error(`${signal}: stopping the proxy`);
        proxy.close().then(done, done);
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
  },
};
