import { describe, expect, it } from 'vitest';
import { createExchange } from '../exchange.js';
import type { PipelineEnv } from '../pipeline-env.js';
import { serveOpenRoutes } from './serve-open-routes.js';

const env = {
  documents: { json: () => '{"openapi":"3.0.3"}', yaml: () => 'openapi: 3.0.3\n' },
} as PipelineEnv;
const exchange = (method: string, path: string) =>
  createExchange({ method, path, query: '', headers: new Headers(), body: null });

describe('serveOpenRoutes', () => {
  it('answers /healthz and the contract documents outside the API base', () => {
    expect(serveOpenRoutes(exchange('GET', '/healthz'), env)?.status).toBe(200);
    expect(serveOpenRoutes(exchange('GET', '/openapi.yaml'), env)?.body).toBe('openapi: 3.0.3\n');
  });

  it('is 404 for any other path outside the base, whatever its method', () => {
    expect(() => serveOpenRoutes(exchange('BREW', '/coffee'), env)).toThrow(
      expect.objectContaining({ status: 404 }),
    );
    expect(() => serveOpenRoutes(exchange('GET', '/api/v2/users'), env)).toThrow(
      expect.objectContaining({ status: 404 }),
    );
  });

  it('hands on every path inside the base, the alias included', () => {
    expect(serveOpenRoutes(exchange('GET', '/api/v1/users'), env)).toBeUndefined();
    expect(serveOpenRoutes(exchange('GET', '/api/users'), env)).toBeUndefined();
  });
});
