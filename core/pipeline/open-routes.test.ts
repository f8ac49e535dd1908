import { describe, expect, it } from 'vitest';
import { openDocuments, openRoute } from './open-routes.js';

/** Documents that count how often each text was made. */
function counted() {
  const made = { json: 0, yaml: 0 };
  const documents = openDocuments({
    json: () => `{"made":${++made.json}}`,
    yaml: () => `made: ${++made.yaml}\n`,
  });
  return { made, documents };
}

describe('openDocuments', () => {
  it('makes neither text until it is asked for, then each once', () => {
    const { made, documents } = counted();
    expect(made).toEqual({ json: 0, yaml: 0 });
    expect(documents.json()).toBe('{"made":1}');
    expect(documents.json()).toBe('{"made":1}');
    expect(made).toEqual({ json: 1, yaml: 0 });
    expect(documents.yaml()).toBe('made: 1\n');
    expect(documents.yaml()).toBe('made: 1\n');
    expect(made).toEqual({ json: 1, yaml: 1 });
  });
});

describe('openRoute', () => {
  it('answers /healthz without making either document', () => {
    const { made, documents } = counted();
    const health = openRoute('/healthz', 'GET', documents);
    expect(health).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    expect(health?.headers['Cache-Control']).toBe('no-store');
    expect(openRoute('/healthz', 'OPTIONS', documents)?.status).toBe(204);
    expect(made).toEqual({ json: 0, yaml: 0 });
  });

  it('serves each document with its media type, made on the first request for that one alone', () => {
    const { made, documents } = counted();
    const json = openRoute('/openapi.json', 'GET', documents);
    expect(json).toMatchObject({ status: 200, body: '{"made":1}' });
    expect(json?.headers).toEqual({
      'Content-Type': 'application/json',
      'Cache-Control': 'public, max-age=300',
    });
    expect(made).toEqual({ json: 1, yaml: 0 });
    const yaml = openRoute('/openapi.yaml', 'HEAD', documents);
    expect(yaml?.headers['Content-Type']).toBe('application/yaml');
    expect(openRoute('/openapi.yaml', 'GET', documents)?.body).toBe('made: 1\n');
    expect(made).toEqual({ json: 1, yaml: 1 });
  });

  it('refuses other methods with 405 and Allow, and leaves other paths alone', () => {
    const { made, documents } = counted();
    expect(() => openRoute('/openapi.json', 'POST', documents)).toThrow(/POST is not supported/);
    expect(openRoute('/openapi', 'GET', documents)).toBeUndefined();
    expect(openRoute('/constructor', 'GET', documents)).toBeUndefined();
    expect(made).toEqual({ json: 0, yaml: 0 });
  });
});
