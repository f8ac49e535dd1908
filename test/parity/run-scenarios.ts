import type { Scenario, Step } from './scenario-types.js';

/** One step as sent and answered on one side. */
export interface Exchange {
  /** `reset` or the step's number in its scenario, with method and path as written. */
  label: string;
  method: string;
  /** The path as sent (templates resolved). */
  path: string;
  sentHeaders: Record<string, string>;
  /** 0 when the request failed without an answer (see `error`). */
  status: number;
  headers: Headers;
  /** The body as text; null when empty. */
  text: string | null;
  error?: string;
  /** Template variables an earlier step failed to capture. */
  unresolved: string[];
}

export interface Transcript {
  scenario: string;
  exchanges: Exchange[];
}

export interface SideOptions {
  /** Origin of the side, e.g. `http://mock.test` or `http://127.0.0.1:41234`. */
  origin: string;
  passwords: { admin: string; user: string };
}

/** Every scenario starts from the demo data set (ids counters are kept by a reset, on both sides). */
const RESET: Step = { method: 'POST', path: '/api/v1/admin/reset', as: 'admin' };

/**
 * Runs the scenarios in order against one side with plain `fetch`: logs in as the two demo
 * accounts once, then for each scenario resets the data set and sends its steps, resolving
 * `{{captures}}` from this side's own earlier answers.
 */
export async function runScenarios(
  scenarios: readonly Scenario[],
  side: SideOptions,
): Promise<Transcript[]> {
  const tokens = {
    admin: await loginToken(side.origin, 'admin@example.com', side.passwords.admin),
    user: await loginToken(side.origin, 'user@example.com', side.passwords.user),
  };
  const transcripts: Transcript[] = [];
  for (const scenario of scenarios) {
    const vars = new Map<string, string>();
    const exchanges: Exchange[] = [];
    const steps: [string, Step][] = [
      ['reset', RESET],
      ...scenario.steps.map((step, i): [string, Step] => [
        `#${i + 1} ${step.method} ${step.path}`,
        step,
      ]),
    ];
    for (const [label, step] of steps) {
      const exchange = await send(side.origin, label, step, vars, tokens);
      exchanges.push(exchange);
      for (const [name, source] of Object.entries(step.capture ?? {})) {
        const value = captured(exchange, source);
        if (value === undefined) vars.delete(name);
        else vars.set(name, value);
      }
    }
    transcripts.push({ scenario: scenario.name, exchanges });
  }
  return transcripts;
}

async function send(
  origin: string,
  label: string,
  step: Step,
  vars: Map<string, string>,
  tokens: { admin: string; user: string },
): Promise<Exchange> {
  const unresolved = new Set<string>();
  const fill = (text: string) =>
    text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
      const value = vars.get(name);
      if (value === undefined) unresolved.add(name);
      return value ?? whole;
    });
  const path = fill(step.path);
  const headers: Record<string, string> = {};
  if (step.as !== 'none') headers.Authorization = `Bearer ${tokens[step.as]}`;
  let body: string | undefined;
  if (step.rawBody !== undefined) body = step.rawBody;
  else if (step.body !== undefined) body = JSON.stringify(deepFill(step.body, fill));
  const contentType = step.contentType === undefined ? 'application/json' : step.contentType;
  if (body !== undefined && contentType !== null) headers['Content-Type'] = contentType;
  for (const [name, value] of Object.entries(step.headers ?? {})) {
    for (const existing of Object.keys(headers))
      if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
    headers[name] = fill(value);
  }
  const base = { label, method: step.method, path, sentHeaders: headers };
  try {
    const res = await fetch(origin + path, {
      method: step.method,
      headers,
      ...(body === undefined ? {} : { body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return {
      ...base,
      status: res.status,
      headers: res.headers,
      text: text === '' ? null : text,
      unresolved: [...unresolved],
    };
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof Response) {
      // The test's fallback handler: nothing in the mocks answered this request.
      return {
        ...base,
        status: 0,
        headers: new Headers(),
        text: null,
        error: 'the mocks did not answer (the request fell through their handlers)',
        unresolved: [...unresolved],
      };
    }
    return {
      ...base,
      status: 0,
      headers: new Headers(),
      text: null,
      error: `${String(error)}${cause ? ` (cause: ${String(cause)})` : ''}`,
      unresolved: [...unresolved],
    };
  }
}

function deepFill(value: unknown, fill: (text: string) => string): unknown {
  if (typeof value === 'string') return fill(value);
  if (Array.isArray(value)) return value.map((v) => deepFill(v, fill));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepFill(v, fill)]));
  return value;
}

/** `body.a.0.b` from the JSON body or `header.name` from the answer; undefined when absent. */
function captured(exchange: Exchange, source: string): string | undefined {
  const [where, ...rest] = source.split('.');
  if (where === 'header') return exchange.headers.get(rest.join('.')) ?? undefined;
  if (where !== 'body' || exchange.text === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(exchange.text);
  } catch {
    return undefined;
  }
  for (const key of rest) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value === undefined || value === null ? undefined : String(value);
}

async function loginToken(origin: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${origin}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200)
    throw new Error(`login as ${username} at ${origin}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}
