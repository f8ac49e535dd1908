import { describe, expect, it } from 'vitest';
import { countUtf8Bytes, utf8Length } from './utf8-length.js';

const encoder = new TextEncoder();

describe('utf8Length', () => {
  it.each([
    '',
    'plain ascii {"id":1}',
    'né café',
    'Ελληνικά',
    '日本語のテキスト',
    '😀 emoji 👩‍👩‍👧',
    '\u007f\u0080\u07ff\u0800\uffff',
    'lone high \ud800 in the middle',
    'lone low \udc00 too',
    'high at the end \ud83d',
    '\udc00\ud800 reversed pair',
  ])('counts %j as TextEncoder does', (text) => {
    expect(utf8Length(text)).toBe(encoder.encode(text).length);
    expect(countUtf8Bytes(text)).toBe(encoder.encode(text).length);
  });
});
