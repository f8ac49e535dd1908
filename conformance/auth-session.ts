import type { OpenAPIV3 } from 'openapi-types';
import { needsCredentials } from '../spec/operation-security.js';
import type { SpecOperation } from '../spec/operations.js';
import { buildRequest } from './http/build-request.js';
import type { Exchange, TargetClient } from './http/target-client.js';
import { loginFailure } from './setup/login-failure.js';

/** Whom a request is sent as: the user, the admin, nobody, or an exact Authorization value. */
export type Credential = 'user' | 'admin' | 'none' | { authorization: string };

export interface AuthOptions {
  /** A ready bearer token, used as the user's. */
  token?: string;
  username?: string;
  password?: string;
  adminUsername?: string;
  adminPassword?: string;
}

interface Tokens {
  accessToken: string;
  refreshToken?: string;
  expiresAt: number;
}

/** Renew a token this long before it expires. */
const RENEW_MARGIN_MS = 60_000;

/**
 * Credentials for a run. With a username and password it logs in through the spec's login
 * operation (found by shape: an open operation taking `username` and `password` and
 * answering an `accessToken`), and renews through the refresh operation (an open operation
 * taking `refreshToken`), or logs in again, shortly before the token expires.
 */
export class AuthSession {
  private readonly login: SpecOperation | undefined;
  private readonly refresh: SpecOperation | undefined;
  private readonly tokens: Partial<Record<'user' | 'admin', Tokens>> = {};

  constructor(
    operations: SpecOperation[],
    private readonly client: TargetClient,
    private readonly options: AuthOptions,
    /** Told about each login/refresh exchange, so they count for checks and coverage too. */
    private readonly observe?: (op: SpecOperation, exchange: Exchange) => void,
    /** Told of each access token issued to the user or the admin (curl lines name them, 0098). */
    private readonly onToken?: (who: 'user' | 'admin', accessToken: string) => void,
  ) {
    this.login = operations.find(
      (op) => isOpen(op) && bodyHas(op, ['username', 'password']) && answers(op, 'accessToken'),
    );
    this.refresh = operations.find(
      (op) => isOpen(op) && bodyHas(op, ['refreshToken']) && answers(op, 'accessToken'),
    );
  }

  /** The login operation found in the spec, if any. */
  get loginOperation(): SpecOperation | undefined {
    return this.login;
  }

  /** The username and password configured for `who`, for checks that log in themselves. */
  credentials(who: 'user' | 'admin'): { username: string; password: string } | undefined {
    const [username, password] =
      who === 'user'
        ? [this.options.username, this.options.password]
        : [this.options.adminUsername, this.options.adminPassword];
    return username && password ? { username, password } : undefined;
  }

  has(who: 'user' | 'admin'): boolean {
    if (who === 'user')
      return Boolean(this.options.token || (this.options.username && this.options.password));
    return Boolean(this.options.adminUsername && this.options.adminPassword);
  }

  /** The Authorization header for a credential (undefined for 'none' or when not configured). */
  async authorization(credential: Credential): Promise<string | undefined> {
    if (credential === 'none') return undefined;
    if (typeof credential === 'object') return credential.authorization;
    if (credential === 'user' && this.options.token) return `Bearer ${this.options.token}`;
    const tokens = await this.tokensFor(credential);
    return tokens ? `Bearer ${tokens.accessToken}` : undefined;
  }

  /** The access token of a credential, for probes that tamper with it. */
  async accessToken(who: 'user' | 'admin'): Promise<string | undefined> {
    const header = await this.authorization(who);
    return header?.replace(/^Bearer /, '');
  }

  private async tokensFor(who: 'user' | 'admin'): Promise<Tokens | undefined> {
    const current = this.tokens[who];
    if (current && current.expiresAt - Date.now() > RENEW_MARGIN_MS) return current;
    const [username, password] =
      who === 'user'
        ? [this.options.username, this.options.password]
        : [this.options.adminUsername, this.options.adminPassword];
    if (!username || !password) return undefined;
    if (current?.refreshToken && this.refresh) {
      const renewed = await this.exchange(this.refresh, { refreshToken: current.refreshToken });
      if (!('response' in renewed)) return this.issued(who, renewed);
    }
    if (!this.login)
      throw new Error(
        'credentials were given but the spec has no login operation (username + password -> accessToken)',
      );
    const fresh = await this.exchange(this.login, { username, password });
    if ('response' in fresh) throw new Error(loginFailure(username, this.login, fresh));
    return this.issued(who, fresh);
  }

  private issued(who: 'user' | 'admin', tokens: Tokens): Tokens {
    this.onToken?.(who, tokens.accessToken);
    return (this.tokens[who] = tokens);
  }

  /** The tokens of a 2xx answer, or the exchange that refused. */
  private async exchange(
    op: SpecOperation,
    body: Record<string, string>,
  ): Promise<Tokens | Exchange> {
    // The run's own logins: sent whatever the scope, judged only where it holds them.
    const res = await this.client.send({ ...buildRequest(op, { body }), housekeeping: true });
    this.observe?.(op, res);
    if (res.response.status < 200 || res.response.status >= 300) return res;
    const answer = JSON.parse(res.response.body) as {
      accessToken: string;
      refreshToken?: string;
      expiresIn?: number;
    };
    const exp =
      jwtExpiry(answer.accessToken) ??
      (answer.expiresIn ? Date.now() + answer.expiresIn * 1000 : Date.now() + 300_000);
    return {
      accessToken: answer.accessToken,
      ...(answer.refreshToken ? { refreshToken: answer.refreshToken } : {}),
      expiresAt: exp,
    };
  }
}

/** Whether an operation needs no credentials (no security requirement, or an empty one). */
export function isOpen(op: SpecOperation): boolean {
  return !needsCredentials(op);
}

function bodyHas(op: SpecOperation, names: string[]): boolean {
  const schema = op.requestBody?.content['application/json']?.schema as
    OpenAPIV3.SchemaObject | undefined;
  return names.every((n) => schema?.properties?.[n] !== undefined);
}

function answers(op: SpecOperation, property: string): boolean {
  return Object.entries(op.responses).some(([status, r]) => {
    const schema = r.content?.['application/json']?.schema as OpenAPIV3.SchemaObject | undefined;
    return status.startsWith('2') && schema?.properties?.[property] !== undefined;
  });
}

/** The `exp` of a JWT in ms, read without verifying (we only need to know when to renew). */
function jwtExpiry(token: string): number | undefined {
  try {
    const payload = JSON.parse(
      Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'),
    ) as { exp?: number };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
