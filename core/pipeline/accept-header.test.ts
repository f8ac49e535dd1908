import { describe, expect, it } from 'vitest';
import { acceptsJson } from './accept-header.js';

describe('acceptsJson', () => {
  it.each([
    { name: 'no header', accept: null, expected: true },
    { name: 'an empty header', accept: '', expected: true },
    { name: 'a blank header', accept: '   ', expected: true },
    { name: 'application/json', accept: 'application/json', expected: true },
    { name: 'application/problem+json', accept: 'application/problem+json', expected: true },
    { name: '*/*', accept: '*/*', expected: true },
    { name: 'application/*', accept: 'application/*', expected: true },
    { name: 'upper case', accept: 'APPLICATION/JSON', expected: true },
    { name: 'with parameters', accept: 'application/json; charset=utf-8', expected: true },
    {
      name: 'a browser default',
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
      expected: true,
    },
    { name: 'JSON with a low q', accept: 'text/html, application/json;q=0.1', expected: true },
    { name: 'spaces around ranges', accept: ' text/html ,  application/json ', expected: true },
    { name: 'text/html only', accept: 'text/html', expected: false },
    { name: 'text/*', accept: 'text/*', expected: false },
    { name: 'XML only', accept: 'application/xml', expected: false },
    { name: 'a JSON look-alike', accept: 'application/jsonx', expected: false },
    { name: 'another +json type', accept: 'application/hal+json', expected: false },
    { name: 'JSON refused with q=0', accept: 'application/json;q=0', expected: false },
    { name: 'JSON refused with q=0.000', accept: 'application/json; q=0.000', expected: false },
    { name: '*/* refused with q=0', accept: 'text/html, */*;q=0', expected: false },
    { name: 'Q=0 in upper case', accept: 'application/json;Q=0', expected: false },
  ])('$name: $accept -> $expected', ({ accept, expected }) => {
    expect(acceptsJson(accept)).toBe(expected);
  });
});
