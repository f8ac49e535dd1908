import { describe, expect, it } from 'vitest';
import { loadSpec } from '../spec/load-spec.js';
import { GatewayValidator, gatewayPrefix, specRelativeHeaders } from './gateway-validator.js';

describe('gatewayPrefix', () => {
  it.each([
    ['/svc/api/v1', '/api/v1', '/svc'],
    ['/a/b/api/v1', '/api/v1', '/a/b'],
    ['/api/v1', '/api/v1', ''],
    ['/api', '/api/v1', ''], // the alias of the newest version: not a prefix
    ['', '/api/v1', ''],
    ['/v2', '', '/v2'], // a spec served at the root, behind /v2
    ['/v2', undefined, '/v2'],
  ])('%s under the server path %s: %j', (base, declared, prefix) => {
    expect(gatewayPrefix(base, declared)).toBe(prefix);
  });
});

describe('specRelativeHeaders', () => {
  const headers = (init: Record<string, string>) => new Headers(init);

  it('takes the prefix off path-absolute Location, Content-Location and Link targets', () => {
    const mapped = specRelativeHeaders(
      headers({
        Location: '/svc/api/v1/users/5',
        'Content-Location': '/svc/api/v1/users/5?expand=items',
        Link: '</svc/api/v1/users?page=0&size=2>; rel="first", </svc/api/v1/users?page=3&size=2>; rel="last"',
        ETag: '"/svc/api/v1"',
      }),
      '/svc',
    );
    expect(mapped.get('location')).toBe('/api/v1/users/5');
    expect(mapped.get('content-location')).toBe('/api/v1/users/5?expand=items');
    expect(mapped.get('link')).toBe(
      '</api/v1/users?page=0&size=2>; rel="first", </api/v1/users?page=3&size=2>; rel="last"',
    );
    expect(mapped.get('etag')).toBe('"/svc/api/v1"');
  });

  it('leaves absolute URLs, other paths and a prefix that ends mid-segment as they came', () => {
    const mapped = specRelativeHeaders(
      headers({
        Location: 'http://host/svc/api/v1/users/5',
        'Content-Location': '/svcx/api/v1/users/5',
        Link: '<//other/svc/x>; rel="next", </elsewhere>; rel="last"',
      }),
      '/svc',
    );
    expect(mapped.get('location')).toBe('http://host/svc/api/v1/users/5');
    expect(mapped.get('content-location')).toBe('/svcx/api/v1/users/5');
    expect(mapped.get('link')).toBe('<//other/svc/x>; rel="next", </elsewhere>; rel="last"');
  });
});

describe('GatewayValidator', () => {
  it("judges a Location behind a gateway prefix by the spec's pattern, and only there", async () => {
    const spec = await loadSpec();
    const answer = (location: string) => ({
      method: 'POST',
      status: 201,
      headers: new Headers({
        Location: location,
        'Content-Type': 'application/json',
        ETag: '"abc"',
        'Last-Modified': 'Tue, 20 Jan 2026 14:05:12 GMT',
      }),
      body: null,
    });
    const headerViolations = (validator: GatewayValidator, location: string) =>
      validator
        .validate('createUser', answer(location))
        .filter((v) => v.kind === 'header' && v.message.includes('Location'));
    const behindGateway = new GatewayValidator(spec, '/svc/api/v1');
    expect(headerViolations(behindGateway, '/svc/api/v1/users/5')).toEqual([]);
    expect(headerViolations(behindGateway, '/svc/api/v1/people/5')).toHaveLength(1);
    const direct = new GatewayValidator(spec, '/api/v1');
    expect(headerViolations(direct, '/api/v1/users/5')).toEqual([]);
    expect(headerViolations(direct, '/svc/api/v1/users/5')).toHaveLength(1);
  });
});
