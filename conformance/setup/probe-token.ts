import { needsCredentials } from '../../spec/operation-security.js';
import type { SpecOperation } from '../../spec/operations.js';
import { ConformanceSetupError } from '../conformance-options.js';
import { buildRequest } from '../http/build-request.js';
import type { TargetClient } from '../http/target-client.js';
import { answerDetail } from './answer-summary.js';

/**
 * Catches a `token` the target refuses before any check misreads its 401s as failures: one
 * safe GET that needs credentials per the spec (without path parameters where there is one,
 * else with each path parameter's example or 1) is sent with it; a 401 stops the run. Any other
 * answer (a 403 of a role, a 404) leaves the token to the checks. Nothing is sent when the
 * spec has no such operation.
 *
 * @example
 * await probeToken(client, operations, options.token);
 */
export async function probeToken(
  client: TargetClient,
  operations: SpecOperation[],
  token: string,
): Promise<void> {
  const secured = operations.filter((op) => op.method === 'get' && needsCredentials(op));
  const op = secured.find((o) => !o.path.includes('{')) ?? secured[0];
  if (!op) return;
  const path = Object.fromEntries(
    op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.example ?? 1]),
  );
  const probe = await client.send({
    ...buildRequest(op, { path, authorization: `Bearer ${token}` }),
    housekeeping: true,
  });
  if (probe.response.status !== 401) return;
  const detail = answerDetail(probe);
  const expired = expiredAt(token);
  throw new ConformanceSetupError(
    `the --token was refused (401 to GET ${probe.request.url}${detail ? `: ${detail}` : ''})${expired ? `, it expired at ${expired}` : ''}: give a valid, unexpired access token of the user, or --username and --password to let the run log in`,
  );
}

/** When a JWT's `exp` is past, that time (ISO 8601); read without verifying. */
function expiredAt(token: string): string | undefined {
  try {
    const payload = JSON.parse(
      Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'),
    ) as { exp?: unknown };
    const exp = typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
    return exp !== undefined && exp < Date.now() ? new Date(exp).toISOString() : undefined;
  } catch {
    return undefined;
  }
}
