import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, PrismStartError, prismBinPath, startPrism } from './start-prism.js';

/** A minimal description: one operation with an example, one with a typed path parameter. */
const SPEC = `openapi: 3.0.3
info: { title: Tiny, version: 1.0.0 }
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer, minimum: 1 } }
      responses:
        '200':
          description: A thing.
          content:
            application/json:
              schema:
                type: object
                required: [id, name]
                properties: { id: { type: integer }, name: { type: string } }
              example: { id: 1, name: thing one }
`;

let dir: string;
let specPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-prism-'));
  specPath = join(dir, 'tiny.yaml');
  await writeFile(specPath, SPEC);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** True when something accepts TCP connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('prismBinPath / freePort', () => {
  it('resolves the CLI from the installed package, not from PATH', () => {
    const bin = prismBinPath();
    expect(bin).toContain(`${sep}@stoplight${sep}prism-cli${sep}`);
    expect(existsSync(bin)).toBe(true);
  });

  it('finds a port nobody listens on', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    expect(await listening(port)).toBe(false);
  });
});

describe('startPrism', () => {
  it('starts a static mock, answers from the examples, and stops cleanly', async () => {
    const started = performance.now();
    const prism = await startPrism({ specPath });
    const startMs = performance.now() - started;
    try {
      expect(prism.url).toBe(`http://127.0.0.1:${prism.port}`);
      expect(prism.output()).toMatch(/is listening on/);
      const res = await fetch(`${prism.url}/things/1`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ id: 1, name: 'thing one' });
      // Prism validates requests against the description.
      expect((await fetch(`${prism.url}/things/abc`)).status).toBeGreaterThanOrEqual(400);
    } finally {
      const stopping = performance.now();
      await prism.close();
      console.log(
        `prism mock: started in ${Math.round(startMs)} ms, stopped in ${Math.round(performance.now() - stopping)} ms`,
      );
    }
    expect(alive(prism.pid)).toBe(false);
    expect(await listening(prism.port)).toBe(false);
    await prism.close(); // idempotent
  });

  it('generates bodies from the schemas with dynamic, repeatably with a seed', async () => {
    const prism = await startPrism({ specPath, dynamic: true, seed: 7 });
    try {
      const first = (await (await fetch(`${prism.url}/things/1`)).json()) as Record<
        string,
        unknown
      >;
      expect(typeof first.id).toBe('number');
      expect(typeof first.name).toBe('string');
      const second: unknown = await (await fetch(`${prism.url}/things/1`)).json();
      expect(second).toEqual(first);
    } finally {
      await prism.close();
    }
  });

  it('runs as a validating proxy in front of an upstream', async () => {
    const seen: string[] = [];
    const upstream: Server = createServer((req: IncomingMessage, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 5, name: 'from upstream' }));
    });
    await new Promise<void>((ready) => upstream.listen(0, '127.0.0.1', ready));
    const { port } = upstream.address() as AddressInfo;
    const started = performance.now();
    const prism = await startPrism({
      specPath,
      mode: 'proxy',
      upstream: `http://127.0.0.1:${port}`,
    });
    const startMs = performance.now() - started;
    try {
      const res = await fetch(`${prism.url}/things/5`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ id: 5, name: 'from upstream' });
      expect(seen).toEqual(['GET /things/5']);
      // An invalid request is still forwarded, with the violations reported in a header.
      const bad = await fetch(`${prism.url}/things/abc`);
      await bad.arrayBuffer();
      expect(bad.headers.get('sl-violations') ?? '').toMatch(/integer/);
    } finally {
      const stopping = performance.now();
      await prism.close();
      console.log(
        `prism proxy: started in ${Math.round(startMs)} ms, stopped in ${Math.round(performance.now() - stopping)} ms`,
      );
      await new Promise((done) => upstream.close(done));
    }
  });

  it('fails with Prism own output when it cannot start', async () => {
    const error = await startPrism({ specPath: join(dir, 'missing.yaml') }).catch((e) => e);
    expect(error).toBeInstanceOf(PrismStartError);
    expect((error as Error).message).toMatch(/did not start/);
    expect((error as Error).message).toMatch(/missing\.yaml/);
    expect((error as Error).message).toMatch(/--- prism output ---/);
  });

  it('reports a port that is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((ready) => blocker.listen(0, '127.0.0.1', ready));
    const { port } = blocker.address() as AddressInfo;
    try {
      const error = await startPrism({ specPath, port }).catch((e) => e);
      expect(error).toBeInstanceOf(PrismStartError);
      expect((error as Error).message).toMatch(/EADDRINUSE/);
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  });

  it('refuses inconsistent options before spawning anything', async () => {
    await expect(startPrism({ specPath, mode: 'proxy' })).rejects.toThrow(/upstream/);
    await expect(startPrism({ specPath, upstream: 'http://127.0.0.1:1' })).rejects.toThrow(
      /only for proxy/,
    );
  });
});
