import { buildRequest } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { ScenarioCheck } from '../check.js';
import {
  allowedMethods,
  describeResponse,
  fixtureCredential,
  pathLevelParams,
  selectedPaths,
} from '../support/probe-support.js';

/** The methods probed for 405; HEAD and OPTIONS have rules of their own. */
const STANDARD_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Methods an `Allow` header should list for a path: declared, HEAD with GET, and OPTIONS. */
export function expectedAllow(declared: string[]): Set<string> {
  const methods = new Set(declared.map((m) => m.toUpperCase()));
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  return methods;
}

const list = (methods: Iterable<string>) => [...methods].sort().join(', ');

/**
 * unsupported_method: every standard method a path does not declare is answered 405 with an
 * `Allow` header listing the declared methods (RFC 9110 15.5.6). Sent as the user (so a 401
 * cannot stand in for the 405) at real path parameters, without a body.
 */
export const unsupportedMethod: ScenarioCheck = {
  kind: 'scenario',
  name: 'unsupported_method',
  description: 'Undeclared methods are answered 405 with an Allow header listing the declared ones',
  async run(ctx, record) {
    await ctx.each(selectedPaths(ctx), async ({ path, operations, declared, required }) => {
      const op = operations.find((o) => o.method !== 'options') ?? operations[0]!;
      const undeclared = STANDARD_METHODS.filter((m) => !declared.includes(m));
      if (undeclared.length === 0) return record.skip(op, `${path} declares every standard method`);
      const params = await pathLevelParams(ctx, path);
      if ('reason' in params) return record.skip(op, params.reason);
      const authorization = (await ctx.auth.authorization(fixtureCredential(ctx))) ?? null;
      const problems: { method: string; exchange: Exchange; actual: string }[] = [];
      for (const method of undeclared) {
        if (ctx.stopped()) return;
        const exchange = await ctx.client.send(
          buildRequest(op, { method, path: params.parameters, authorization }),
        );
        const status = exchange.response.status;
        const allow = allowedMethods(exchange.headers.get('allow'));
        const missing = required.filter((m) => !allow.has(m));
        let actual: string | undefined;
        if (status !== 405) actual = describeResponse(exchange);
        else if (!exchange.headers.has('allow')) actual = '405 without an Allow header';
        else if (missing.length || allow.has(method))
          actual = `405 with Allow: ${exchange.headers.get('allow')}`;
        if (actual) problems.push({ method, exchange, actual });
      }
      const first = problems[0];
      if (first) {
        return record.fail(
          op,
          {
            message: `${problems.map((p) => p.method).join(', ')} on ${path} not answered 405 with a correct Allow`,
            expected: `405 with Allow listing ${list(declared)} (not ${first.method})`,
            actual: `${first.method}: ${first.actual}`,
          },
          first.exchange,
        );
      }
      record.pass(op, `${undeclared.join(', ')} on ${path} answered 405 with Allow`);
    });
  },
};

/**
 * allow_header_conformance: OPTIONS, on every path whose spec declares it, answers 2xx with an
 * `Allow` header listing exactly the declared methods, HEAD where GET is, and OPTIONS. It is
 * called as the declared operation, so response checks judge it too.
 */
export const allowHeaderConformance: ScenarioCheck = {
  kind: 'scenario',
  name: 'allow_header_conformance',
  description: 'OPTIONS answers 2xx with Allow listing exactly the methods of the path',
  async run(ctx, record) {
    await ctx.each(selectedPaths(ctx), async ({ path, operations, declared, required }) => {
      const declaredOptions = ctx.allOperations.find(
        (o) => o.path === path && o.method === 'options',
      );
      // HTTP does not oblige a server to answer OPTIONS: judge only paths whose spec says it does.
      if (!declaredOptions) {
        return record.skip(operations[0], `the spec declares no OPTIONS for ${path}`);
      }
      const op = declaredOptions;
      const params = await pathLevelParams(ctx, path);
      if ('reason' in params) return record.skip(op, params.reason);
      if (ctx.stopped()) return;
      const exchange = await ctx.call(declaredOptions, { path: params.parameters });
      const expected = expectedAllow(declared);
      const allow = allowedMethods(exchange.headers.get('allow'));
      const status = exchange.response.status;
      // Methods of operations out of scope or missing may be listed, and need not be.
      const missing = [...expectedAllow(required)].filter((m) => !allow.has(m));
      const extra = [...allow].filter((m) => !expected.has(m));
      if (status < 200 || status >= 300 || missing.length || extra.length) {
        const detail = [
          missing.length ? `missing ${missing.join(', ')}` : '',
          extra.length ? `not declared ${extra.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; ');
        return record.fail(
          op,
          {
            message:
              status < 200 || status >= 300
                ? `OPTIONS ${path} answered ${status}`
                : `OPTIONS ${path}: Allow does not list the path's methods (${detail})`,
            expected: `2xx with Allow: ${list(expected)}`,
            actual: exchange.headers.has('allow')
              ? `${status} with Allow: ${exchange.headers.get('allow')}`
              : `${describeResponse(exchange)} (no Allow header)`,
          },
          exchange,
        );
      }
      record.pass(op, `OPTIONS ${path} lists ${list(expected)}`);
    });
  },
};
