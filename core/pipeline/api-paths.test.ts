import { describe, expect, it } from 'vitest';
import { API_BASE, apiRelativePath } from './api-paths.js';

describe('apiRelativePath', () => {
  it('names /api/v1 as the base', () => {
    expect(API_BASE).toBe('/api/v1');
  });

  it.each([
    { name: 'the versioned base', path: '/api/v1/users/1', expected: '/users/1' },
    { name: 'the /api alias', path: '/api/users/1', expected: '/users/1' },
    { name: 'a nested path', path: '/api/v1/users/2/orders/3', expected: '/users/2/orders/3' },
    {
      name: 'a trailing slash is kept (routing 404s it)',
      path: '/api/v1/users/',
      expected: '/users/',
    },
    { name: 'the base with a slash', path: '/api/v1/', expected: '/' },
    { name: 'a segment that only starts like a version', path: '/api/video', expected: '/video' },
    { name: 'a v-segment that is not a number', path: '/api/v1x/users', expected: '/v1x/users' },
    { name: 'an unknown version', path: '/api/v2/users', expected: undefined },
    { name: 'a far future version', path: '/api/v17/users', expected: undefined },
    { name: 'a zero-padded version', path: '/api/v01/users', expected: undefined },
    { name: 'an unknown version alone', path: '/api/v2', expected: undefined },
    { name: 'the base without a slash', path: '/api/v1', expected: undefined },
    { name: '/api alone', path: '/api', expected: undefined },
    { name: 'outside the API', path: '/healthz', expected: undefined },
    { name: 'a look-alike prefix', path: '/apiv1/users', expected: undefined },
    { name: 'a different case', path: '/API/v1/users', expected: undefined },
    { name: 'the root', path: '/', expected: undefined },
  ])('$name: $path -> $expected', ({ path, expected }) => {
    expect(apiRelativePath(path)).toBe(expected);
  });
});
