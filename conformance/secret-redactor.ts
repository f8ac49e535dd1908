import type { ShellPiece } from './http/curl-command.js';
import type { RecordedRequest, RecordedResponse } from './report.js';

/** JSON properties whose string values are secrets wherever they appear. */
const SECRET_PROPERTY = /password|secret|token/i;
/** Shorter strings are not worth hiding, and replacing them would mangle unrelated text. */
const MIN_SECRET_LENGTH = 8;

/** A secret a curl line names by a shell variable, and what to export in it. */
export interface ShellVariable {
  /** e.g. `APIKIT_TOKEN` */
  name: string;
  /** What the variable must hold, e.g. `an access token of user@example.com`. */
  holds: string;
}

/**
 * Keeps the run's own secrets out of reports (CI artifacts are widely readable): the passwords
 * and token it was given, and every token the target issued to it (learned from answers).
 * Tokens a check forges on purpose are not secrets and stay: they reproduce an auth failure.
 *
 * @example
 * const redactor = new SecretRedactor();
 * redactor.add('s3cret-password', 'user password');
 * redactor.text('{"password":"s3cret-password"}'); // '{"password":"<user password>"}'
 */
export class SecretRedactor {
  private readonly secrets = new Map<string, string>();
  private readonly variables = new Map<string, ShellVariable>();
  private readonly used = new Map<string, ShellVariable>();

  add(secret: string | undefined, label: string): void {
    if (secret && secret.length >= MIN_SECRET_LENGTH && !this.secrets.has(secret))
      this.secrets.set(secret, label);
  }

  /**
   * A secret that curl lines name by a shell variable (the user's and the admin's access
   * tokens): `$APIKIT_TOKEN` runs once exported, where a placeholder never would. Reports keep
   * the placeholder; only `shellPieces` (the curl lines) use the variable.
   */
  addVariable(secret: string | undefined, label: string, variable: ShellVariable): void {
    this.add(secret, label);
    if (secret && this.secrets.has(secret)) this.variables.set(secret, variable);
  }

  /**
   * A value of a request, for a curl line: split around the secrets named by a variable, every
   * other secret hidden as in `text`.
   *
   * @example
   * redactor.shellPieces('Bearer eyJ…'); // ['Bearer ', { variable: 'APIKIT_TOKEN' }]
   */
  shellPieces(value: string): ShellPiece[] {
    let pieces: ShellPiece[] = [value];
    for (const [secret, variable] of this.variables) {
      pieces = pieces.flatMap((piece) => {
        if (typeof piece !== 'string' || !piece.includes(secret)) return [piece];
        this.used.set(variable.name, variable);
        return piece
          .split(secret)
          .flatMap((text, i): ShellPiece[] =>
            i === 0 ? [text] : [{ variable: variable.name }, text],
          );
      });
    }
    return pieces
      .map((piece) => (typeof piece === 'string' ? this.text(piece) : piece))
      .filter((piece) => piece !== '');
  }

  /** The variables curl lines used so far, each once: what a report tells to export. */
  usedVariables(): ShellVariable[] {
    return [...this.used.values()];
  }

  /** Learns the secrets in a JSON answer (accessToken, refreshToken, ...). */
  learnFrom(body: string): void {
    if (!SECRET_PROPERTY.test(body)) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return;
    }
    const walk = (node: unknown, key = ''): void => {
      if (typeof node === 'string') {
        if (SECRET_PROPERTY.test(key)) this.add(node, `${key} issued to the run`);
      } else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) walk(v, k);
      }
    };
    walk(parsed);
  }

  text(value: string): string {
    let out = value;
    for (const [secret, label] of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(`<${label}>`);
    }
    return out;
  }

  request(request: RecordedRequest): RecordedRequest {
    return {
      ...request,
      url: this.text(request.url),
      headers: Object.fromEntries(
        Object.entries(request.headers).map(([k, v]) => [k, this.text(v)]),
      ),
      ...(request.body !== undefined ? { body: this.text(request.body) } : {}),
    };
  }

  response<T extends RecordedResponse>(response: T): T {
    return {
      ...response,
      headers: Object.fromEntries(
        Object.entries(response.headers).map(([k, v]) => [k, this.text(v)]),
      ),
      ...(response.body !== undefined ? { body: this.text(response.body) } : {}),
    };
  }
}
