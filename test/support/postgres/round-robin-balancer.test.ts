import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRoundRobinBalancer, type RoundRobinBalancer } from './round-robin-balancer.js';

// The test balancer itself, over plain upstreams that say who they are and echo what they got.

const upstreams: Server[] = [];
let balancer: RoundRobinBalancer;
let deadUrl: string;

async function echoServer(name: string): Promise<string> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.setHeader('Connection', 'keep-alive');
      res.writeHead(201, { 'Content-Type': 'application/json', 'X-Upstream': name });
      res.end(
        JSON.stringify({
          name,
          method: req.method,
          url: req.url,
          host: req.headers.host,
          custom: req.headers['x-custom'],
          forwarded: req.headers['x-forwarded-for'],
          length: Buffer.concat(chunks).length,
        }),
      );
    });
  });
  upstreams.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const live = await Promise.all(['a', 'b'].map(echoServer));
  deadUrl = await echoServer('dead');
  await new Promise((resolve) => upstreams.pop()!.close(resolve));
  balancer = await startRoundRobinBalancer([...live, deadUrl]);
});
afterAll(async () => {
  await balancer.close();
  await Promise.all(upstreams.map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('round-robin test balancer', () => {
  it('sends requests to each upstream in turn, a 502 problem+json where one is down', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await fetch(`${balancer.url}/x?i=${i}`));
    expect(answers.map((a) => a.headers.get('x-upstream') ?? a.status)).toEqual([
      'a',
      'b',
      502,
      'a',
      'b',
      502,
    ]);
    expect(answers[2]!.headers.get('content-type')).toBe('application/problem+json');
    expect(await answers[2]!.json()).toMatchObject({ status: 502, title: 'Bad Gateway' });
    expect(balancer.sent).toEqual([2, 2, 2]);
  });

  it('keeps method, path, query, Host and other headers, appends the client to X-Forwarded-For; streams a large body both ways', async () => {
    const body = 'x'.repeat(300_000);
    let answer: Response;
    do {
      answer = await fetch(`${balancer.url}/api/v1/users?a=1&b=2`, {
        method: 'PATCH',
        headers: {
          'X-Custom': 'kept',
          'Content-Type': 'text/plain',
          'X-Forwarded-For': '192.0.2.1',
        },
        body,
      });
    } while (answer.status === 502);
    expect(answer.status).toBe(201);
    expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await answer.json()).toMatchObject({
      method: 'PATCH',
      url: '/api/v1/users?a=1&b=2',
      host: new URL(balancer.url).host,
      custom: 'kept',
      forwarded: '192.0.2.1, 127.0.0.1',
      length: body.length,
    });
  });
});
