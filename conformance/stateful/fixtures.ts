import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/operations.js';
import type { Credential } from '../auth-session.js';
import { buildRequest } from '../http/build-request.js';
import type { Exchange } from '../http/target-client.js';
import type { RunContext } from '../run-context.js';
import { OperationUnavailableError } from '../run-scope.js';
import { evaluateExpression, type ExpressionSource } from './link-expression.js';

/** A link of a created resource, resolved to its target operation and parameter values. */
export interface ResolvedLink {
  name: string;
  target: SpecOperation;
  /** Parameter values by bare name (`id`, `userId`). */
  parameters: Record<string, unknown>;
  requestBody?: unknown;
}

/** A resource the run created, with the links its creation answer declared. */
export interface CreatedResource {
  producer: SpecOperation;
  exchange: Exchange;
  /** The parsed creation answer. */
  body: unknown;
  /** The request's path parameters (a nested resource's parents). */
  pathParameters: Record<string, unknown>;
  /**
   * The links a check may follow: those to operations the run's scope holds now (decision
   * 0096), so that no check reaches an operation out of scope or missing on the target.
   */
  readonly links: ResolvedLink[];
  /** Every link its creation answer declared: cleanup deletes through them, whatever the scope. */
  allLinks: ResolvedLink[];
  /** Set by whoever deleted it, so cleanup does not try again. */
  deleted: boolean;
}

export type Unavailable = { reason: string };

/**
 * Resources for the stateful checks, derived from the spec's links: a *producer* is a POST
 * whose success answer declares links; its links say which operations the new resource can
 * be read, changed and deleted with, and with which parameter values. A producer that needs
 * path parameters (an order needs its user) gets them from another producer that links to it.
 * Everything created is deleted again by `cleanup` through the linked DELETE operations.
 */
export class Fixtures {
  private readonly created: CreatedResource[] = [];
  private readonly byExchange = new WeakMap<Exchange, CreatedResource>();
  private ctx!: RunContext;
  private producerList: SpecOperation[] | undefined;
  private readonly producersByTarget = new Map<string, SpecOperation[]>();
  private readonly producerFlags = new WeakMap<SpecOperation, boolean>();

  bind(ctx: RunContext): void {
    this.ctx = ctx;
    this.producerList = undefined;
    this.producersByTarget.clear();
  }

  /** Whether `op` creates resources: a POST whose 2xx answers declare links. */
  isProducer(op: SpecOperation): boolean {
    if (op.method !== 'post') return false;
    let producer = this.producerFlags.get(op);
    if (producer === undefined)
      this.producerFlags.set(op, (producer = successLinks(op).length > 0));
    return producer;
  }

  /** What the run created and has not deleted yet (its own resources, free to change). */
  live(): readonly CreatedResource[] {
    return this.created.filter((r) => !r.deleted);
  }

  /**
   * POST operations whose 2xx answers declare links (worked out once: the spec is frozen),
   * whether or not in the run's scope: `create` refuses those that are not.
   */
  producers(): SpecOperation[] {
    return (this.producerList ??= this.ctx.allOperations.filter((op) => this.isProducer(op)));
  }

  /** Producers whose links reach `target`. */
  producersOf(target: SpecOperation): SpecOperation[] {
    let found = this.producersByTarget.get(target.operationId);
    if (!found) {
      found = this.producers().filter((p) =>
        successLinks(p).some(([, link]) => link.operationId === target.operationId),
      );
      this.producersByTarget.set(target.operationId, found);
    }
    return found;
  }

  /** Creates a resource with `producer` and a valid body; parents first when it needs them. */
  async create(
    producer: SpecOperation,
    credential: Credential = 'user',
    depth = 0,
  ): Promise<CreatedResource | Unavailable> {
    if (depth > 4) return { reason: `the link graph above ${producer.operationId} is too deep` };
    // A producer out of scope (or missing on the target) makes nothing: the check skips, saying so.
    const why = this.ctx.scope?.unavailable(producer);
    if (why) return { reason: `needs ${producer.operationId} to make a resource, which ${why}` };
    const needed = producer.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    let pathParameters: Record<string, unknown> = {};
    if (needed.length > 0) {
      const parent = await this.paramsFor(producer, credential, depth + 1);
      if ('reason' in parent) return parent;
      pathParameters = parent.parameters;
    }
    const [body] = this.ctx.generate.positiveBodies(producer, 1);
    let exchange: Exchange;
    try {
      exchange = await this.ctx.call(
        producer,
        { path: pathParameters, ...(body !== undefined ? { body } : {}) },
        credential,
      );
    } catch (error) {
      // Taken out of scope while its parents were made (found missing meanwhile).
      if (error instanceof OperationUnavailableError) return { reason: error.message };
      throw error;
    }
    const status = exchange.response.status;
    if (status < 200 || status >= 300) {
      return {
        reason: `${producer.operationId} answered ${status} to a valid request: ${exchange.response.body.slice(0, 200)}`,
      };
    }
    return this.adopt(producer, exchange, pathParameters, body);
  }

  /**
   * Takes a resource that a 2xx answer of a producer created (whoever sent the request) into
   * the run's care: its links are resolved, and `cleanup` deletes it. The run context adopts
   * every such answer, so no check can leave data behind by creating outside `create`.
   */
  adopt(
    producer: SpecOperation,
    exchange: Exchange,
    pathParameters: Record<string, unknown>,
    body: unknown,
  ): CreatedResource {
    const known = this.byExchange.get(exchange);
    if (known) return known;
    const status = exchange.response.status;
    const parsed = parseJson(exchange.response.body);
    const source: ExpressionSource = {
      request: {
        path: pathParameters,
        query: {},
        headers: exchange.request.headers,
        body,
        url: exchange.request.url,
        method: exchange.request.method,
      },
      response: { status, headers: exchange.headers, body: parsed },
    };
    const links: ResolvedLink[] = [];
    for (const [name, link] of successLinks(producer, status)) {
      const target = link.operationId ? this.ctx.operation(link.operationId) : undefined;
      if (!target) continue;
      const parameters: Record<string, unknown> = {};
      for (const [key, expression] of Object.entries(link.parameters ?? {})) {
        parameters[key.replace(/^(path|query|header|cookie)\./, '')] = evaluateExpression(
          expression,
          source,
        );
      }
      links.push({
        name,
        target,
        parameters,
        ...(link.requestBody !== undefined
          ? { requestBody: evaluateExpression(link.requestBody, source) }
          : {}),
      });
    }
    const scope = this.ctx.scope;
    const resource: CreatedResource = {
      producer,
      exchange,
      body: parsed,
      pathParameters,
      // Read at each use: operation_implemented may take an operation out after this.
      get links() {
        return links.filter((l) => scope?.unavailable(l.target) === undefined);
      },
      allLinks: links,
      deleted: false,
    };
    this.created.push(resource);
    this.byExchange.set(exchange, resource);
    return resource;
  }

  /** Path parameter values for `op`, by creating a resource whose links reach it. */
  async paramsFor(
    op: SpecOperation,
    credential: Credential = 'user',
    depth = 0,
  ): Promise<{ parameters: Record<string, unknown>; resource: CreatedResource } | Unavailable> {
    const producers = this.producersOf(op);
    if (producers.length === 0)
      return {
        reason: `no operation links to ${op.operationId}, so no resource can be made for it`,
      };
    let last: Unavailable = { reason: 'no producer succeeded' };
    for (const producer of producers) {
      const resource = await this.create(producer, credential, depth);
      if ('reason' in resource) {
        last = resource;
        continue;
      }
      // Values only: whoever asked calls `op` (through the scope) itself.
      const link = resource.allLinks.find((l) => l.target.operationId === op.operationId);
      if (link) return { parameters: link.parameters, resource };
    }
    return last;
  }

  /**
   * Deletes what the run created through the linked DELETE operations, `concurrency` at a
   * time: the most nested first (a DELETE with more path parameters, an order before its
   * user), newest first within a level, each level in parallel. A delete refused with
   * anything but 404 (one resource may still hold another that its path does not show) is
   * tried once more at the end, one at a time, newest first, as it used to be done throughout.
   */
  async cleanup(concurrency = 1): Promise<{ deleted: number; left: number }> {
    let deleted = 0;
    const pending = [...this.created]
      .reverse()
      .filter((r) => !r.deleted && r.allLinks.some((l) => l.target.method === 'delete'));
    const depth = (r: CreatedResource) => {
      const link = r.allLinks.find((l) => l.target.method === 'delete');
      return link ? (link.target.path.match(/\{[^}]+\}/g) ?? []).length : 0;
    };
    const levels = [...new Set(pending.map(depth))].sort((a, b) => b - a);
    const refused: CreatedResource[] = [];
    for (const level of levels) {
      const batch = pending.filter((r) => depth(r) === level);
      let next = 0;
      const worker = async () => {
        while (next < batch.length) {
          const resource = batch[next++] as CreatedResource;
          if (await this.remove(resource)) deleted++;
          else refused.push(resource);
        }
      };
      await Promise.all(
        Array.from({ length: Math.min(Math.max(1, concurrency), batch.length) }, worker),
      );
    }
    const newestFirst = (r: CreatedResource) => pending.indexOf(r);
    for (const resource of refused.sort((a, b) => newestFirst(a) - newestFirst(b)))
      if (await this.remove(resource)) deleted++;
    return {
      deleted,
      left: this.created.filter(
        (r) => !r.deleted && r.allLinks.some((l) => l.target.method === 'delete'),
      ).length,
    };
  }

  /** Deletes one resource as the user, else as the admin; true once it is gone (or was). */
  private async remove(resource: CreatedResource): Promise<boolean> {
    if (resource.deleted) return false;
    const link = resource.allLinks.find((l) => l.target.method === 'delete');
    if (!link) return false;
    for (const credential of ['user', 'admin'] as const) {
      if (credential === 'admin' && !this.ctx.auth.has('admin')) break;
      const authorization = (await this.ctx.auth.authorization(credential)) ?? null;
      // Deleting what the run made is housekeeping: done even through an operation out of scope.
      const res = await this.ctx.client.send({
        ...buildRequest(link.target, { path: link.parameters, authorization }),
        housekeeping: true,
      });
      if (res.response.status < 300 || res.response.status === 404) {
        resource.deleted = true;
        return true;
      }
    }
    return false;
  }
}

function successLinks(op: SpecOperation, status?: number): [string, OpenAPIV3.LinkObject][] {
  return Object.entries(op.responses)
    .filter(([code]) => (status === undefined ? code.startsWith('2') : code === String(status)))
    .flatMap(([, r]) => Object.entries(r.links ?? {}) as [string, OpenAPIV3.LinkObject][]);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
