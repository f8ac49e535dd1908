import { createRequire } from 'node:module';
import {
  MIX,
  PASSWORDS,
  type GeneratorConfig,
  type GeneratorResult,
  type Kind,
} from './sustained-rules.js';

/** The load generator's side (its own process): autocannon with the mix, tallied per second. */
export async function generate(config: GeneratorConfig): Promise<GeneratorResult> {
  const autocannon = createRequire(import.meta.url)('autocannon') as (
    options: object,
  ) => NodeJS.EventEmitter & PromiseLike<unknown>;
  const perSecond: number[][] = Array.from({ length: config.durationS + 1 }, () => []);
  const statuses: GeneratorResult['statuses'] = {};
  const errors: Record<string, number> = {};
  let timeouts = 0;
  const created: string[] = [];
  let sequence = 0;
  const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)] as T;
  const auth = { Authorization: `Bearer ${config.token}`, 'Content-Type': 'application/json' };
  const login = (password: string): Built => ({
    method: 'POST',
    path: '/api/v1/auth/login',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'user@example.com', password }),
  });
  // A fresh headers object per request: autocannon writes Content-Length into the one it gets.
  type Built = { method: string; path: string; headers: Record<string, string>; body?: string };
  const build: Record<Kind, () => Built> = {
    getUser: () => ({
      method: 'GET',
      path: `/api/v1/users/${pick(config.readIds)}`,
      headers: { ...auth },
    }),
    listUsers: () => ({
      method: 'GET',
      path: '/api/v1/users?page=0&size=20',
      headers: { ...auth },
    }),
    createUser: () => ({
      method: 'POST',
      path: '/api/v1/users',
      headers: { ...auth },
      body: JSON.stringify({
        name: 'Load',
        email: `load-${process.pid}-${sequence++}@load.example.com`,
      }),
    }),
    patchUser: () => ({
      method: 'PATCH',
      path: `/api/v1/users/${pick(config.patchIds)}`,
      headers: { ...auth },
      body: JSON.stringify({ name: `Patched ${sequence++}` }),
    }),
    login: () => login(PASSWORDS.user),
    badLogin: () => login('not-the-password'),
  };
  // One request whose kind is drawn per send, by the mix's weights: every connection mixes
  // kinds from its first request on (autocannon walks a `requests` list from the start).
  const weighted = MIX.flatMap(([kind, times]) => Array.from({ length: times }, () => kind));
  const request = {
    setupRequest: (base: object, context: { kind?: Kind }) => {
      const kind = pick(weighted) as Kind;
      context.kind = kind;
      return { ...base, ...build[kind]() };
    },
    onResponse: (status: number, body: string, context: { kind?: Kind }) => {
      const kind = context.kind ?? 'unknown';
      const byStatus = (statuses[kind] ??= {});
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      if (kind === 'createUser' && status === 201)
        created.push((JSON.parse(body) as { email: string }).email);
    },
  };
  const started = Date.now();
  const instance = autocannon({
    url: config.url,
    connections: config.connections,
    duration: config.durationS,
    timeout: 10,
    requests: [request],
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    perSecond[Math.min(config.durationS, Math.floor((Date.now() - started) / 1000))]?.push(ms);
  });
  instance.on('reqError', (error: Error) => {
    if (error.message === 'request timed out') timeouts += 1;
    else errors[error.message] = (errors[error.message] ?? 0) + 1;
  });
  await instance;
  return { perSecond: perSecond.slice(0, config.durationS), statuses, created, errors, timeouts };
}
