import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/spec-path.js';
import { startCli, type RunningCli } from '../../test/support/mock-server/start-cli.js';
import { formatPretty, requestLog } from './request-log.js';

const request = {
  time: '2026-11-25T12:03:04.123Z',
  level: 'info',
  msg: 'request',
  requestId: 'abc-1',
  method: 'GET',
  path: '/api/v1/users',
  status: 200,
  durationMs: 3.2,
};

describe('formatPretty', () => {
  it('writes a request as time, level, method, path, status, duration and id', () => {
    expect(formatPretty(request, false)).toBe(
      '12:03:04.123 INFO  GET /api/v1/users 200 3.2 ms  req=abc-1',
    );
  });

  it('writes other lines as the message and key=value fields, quoting what needs it', () => {
    expect(
      formatPretty(
        {
          time: request.time,
          level: 'error',
          msg: 'unexpected error',
          requestId: 'r',
          error: 'EACCES: <path>',
        },
        false,
      ),
    ).toBe('12:03:04.123 ERROR unexpected error error="EACCES: <path>"  req=r');
  });

  it('colours the status by class when asked, and only then', () => {
    expect(formatPretty({ ...request, status: 503 }, true)).toContain('\x1b[31m503\x1b[0m');
    expect(formatPretty({ ...request, status: 404 }, true)).toContain('\x1b[33m404\x1b[0m');
    expect(formatPretty(request, false)).not.toContain('\x1b[');
  });
});

describe('requestLog', () => {
  const collect = async (format: 'json' | 'pretty', level: 'info' | 'error') => {
    let text = '';
    const log = requestLog({ format, level, color: false, write: (t) => (text += t) });
    log.write!(request);
    log.write!({ ...request, level: 'error', msg: 'unexpected error' });
    await new Promise((resolve) => setImmediate(resolve));
    return text;
  };

  it('batches JSON lines per turn of the event loop', async () => {
    const lines = (await collect('json', 'info')).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      request,
      { ...request, level: 'error', msg: 'unexpected error' },
    ]);
  });

  it('drops lines below the level before formatting them', async () => {
    expect((await collect('pretty', 'error')).trim().split('\n')).toHaveLength(1);
    expect(await collect('pretty', 'error')).toMatch(/ERROR unexpected error/);
  });

  it('is nothing at all when off', () => {
    expect(requestLog({ format: 'off' }).write).toBeUndefined();
  });
});

describe('apikit serve request logs (the built CLI)', () => {
  let cli: RunningCli | undefined;
  afterEach(async () => {
    await cli?.stop();
    cli = undefined;
  });

  const oneRequest = async (args: string[]) => {
    cli = await startCli(['serve', '--port', '0', '--memory', ...args]);
    await fetch(`${cli.url}/healthz`, { headers: { 'X-Request-Id': 'log-test-1' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    return cli.stderr();
  };

  it('writes JSON lines when stderr is not a terminal', async () => {
    const stderr = await oneRequest([]);
    const line = stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.requestId === 'log-test-1');
    expect(line).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/healthz',
      status: 200,
    });
  }, 60_000);

  it('writes readable lines with --log-format pretty, none below --log-level', async () => {
    const stderr = await oneRequest(['--log-format', 'pretty']);
    expect(stderr).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}GET \/healthz 200 [\d.]+ ms {2}req=log-test-1$/m,
    );
    await cli!.stop();
    const quiet = await oneRequest(['--log-format', 'pretty', '--log-level', 'warn']);
    expect(quiet).not.toContain('log-test-1');
  }, 60_000);
});

describe('apikit serve on a terminal', () => {
  it('writes readable lines by default when stderr is a terminal (a pty from script(1))', async () => {
    const command = `${process.execPath} ${join(packageRoot, 'bin', 'apikit.js')} serve --port 0 --memory`;
    // util-linux script(1) runs the command on a pseudo-terminal and copies what it prints.
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const waitFor = async (pattern: RegExp) => {
      for (let i = 0; i < 200 && !pattern.test(out); i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      return pattern.exec(out);
    };
    try {
      const url = (await waitFor(/listening on (http:\/\/[\d.:]+)/))?.[1];
      expect(url, out).toBeDefined();
      await fetch(`${url}/healthz`, { headers: { 'X-Request-Id': 'tty-1' } });
      const line = await waitFor(/^.*req=tty-1.*$/m);
      expect(line?.[0], out).toMatch(
        /^\d\d:\d\d:\d\d\.\d{3} INFO {2}GET \/healthz 200 [\d.]+ ms {2}req=tty-1\r?$/,
      );
      expect(out).not.toMatch(/^\{"time"/m);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 60_000);
});
