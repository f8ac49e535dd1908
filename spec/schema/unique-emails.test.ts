import { describe, expect, it } from 'vitest';
import { createAjv } from '../create-ajv.js';
import { createEmailSource, sizedEmail, withUniqueEmails } from './unique-emails.js';

const isEmail = createAjv().compile({ type: 'string', format: 'email' });

describe('sizedEmail', () => {
  it('makes valid addresses of every length from the natural one up to 255', () => {
    for (let length = 13; length <= 255; length++) {
      const email = sizedEmail('conform', length - 6);
      const exact = sizedEmail('a', length);
      expect(exact, String(length)).toHaveLength(length);
      expect(isEmail(exact), exact).toBe(true);
      if (email) expect(isEmail(email)).toBe(true);
    }
    expect(sizedEmail('conform', 5)).toBeUndefined();
  });
});

describe('createEmailSource', () => {
  it('never repeats and honours the limits', () => {
    const source = createEmailSource('1f2e3d4c');
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const email = source.next() as string;
      expect(email).toMatch(/^conform-1f2e3d4c-\d+@example\.com$/);
      seen.add(email);
    }
    expect(seen.size).toBe(500);
    expect(source.next({ length: 254 })).toHaveLength(254);
    const short = source.next({ maxLength: 16 }) as string;
    expect(short.length).toBeLessThanOrEqual(16);
    expect(isEmail(short)).toBe(true);
    expect(source.next({ minLength: 60 })).toHaveLength(60);
    expect(source.next({ maxLength: 4 })).toBeUndefined();
  });
});

describe('withUniqueEmails', () => {
  const schema = {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email', maxLength: 254 },
      username: { type: 'string' },
      contacts: {
        type: 'array',
        items: { allOf: [{ type: 'object', properties: { email: { format: 'email' } } }] },
      },
      alt: { oneOf: [{ type: 'string', format: 'email' }, { type: 'integer' }] },
    },
  };

  it('replaces every format: email string on a copy, keeping boundary lengths', () => {
    const value = {
      email: `a${'x'.repeat(240)}@example.com`,
      username: 'grace@example.com',
      contacts: [{ email: 'one@example.com' }, { email: 'two@example.com' }],
      alt: 'three@example.com',
    };
    const before = JSON.stringify(value);
    const source = createEmailSource('ab');
    const out = withUniqueEmails(value, schema, source) as typeof value;
    expect(JSON.stringify(value)).toBe(before);
    expect(out.username).toBe('grace@example.com');
    expect(out.email).toHaveLength(253);
    expect(out.email).toMatch(/^conform-ab-1x*@/);
    expect(out.contacts.map((c) => c.email)).toEqual([
      'conform-ab-2@example.com',
      'conform-ab-3@example.com',
    ]);
    expect(out.alt).toBe('conform-ab-4@example.com');
  });
});
