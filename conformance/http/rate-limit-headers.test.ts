import { describe, expect, it } from 'vitest';
import { readRateLimits } from './rate-limit-headers.js';

const headers = (record: Record<string, string>) => new Headers(record);

describe('readRateLimits', () => {
  it('reads IETF draft 8: one reading per policy, with quota, window and partition key', () => {
    expect(
      readRateLimits(
        headers({
          RateLimit: '"login"; r=19; t=60, "default"; r=998; t=59',
          'RateLimit-Policy':
            '"login"; q=20; w=60; pk=:MTIzNDU2Nzg5MGFi:, "default"; q=1000; w=60; pk=:YWJjZGVmMDEyMzQ1:',
        }),
      ),
    ).toEqual([
      {
        policy: 'login',
        partition: 'MTIzNDU2Nzg5MGFi',
        remaining: 19,
        resetSeconds: 60,
        quota: 20,
        windowSeconds: 60,
      },
      {
        policy: 'default',
        partition: 'YWJjZGVmMDEyMzQ1',
        remaining: 998,
        resetSeconds: 59,
        quota: 1000,
        windowSeconds: 60,
      },
    ]);
  });

  it('reads draft 7 (limit, remaining, reset in one field)', () => {
    expect(
      readRateLimits(
        headers({ RateLimit: 'limit=100, remaining=42, reset=17', 'RateLimit-Policy': '100;w=60' }),
      ),
    ).toEqual([{ policy: '', remaining: 42, resetSeconds: 17, quota: 100, windowSeconds: 60 }]);
  });

  it('reads the separate RateLimit-* and X-RateLimit-* headers, a Unix reset time too', () => {
    expect(
      readRateLimits(
        headers({ 'RateLimit-Limit': '10', 'RateLimit-Remaining': '3', 'RateLimit-Reset': '5' }),
      ),
    ).toEqual([{ policy: '', remaining: 3, resetSeconds: 5, quota: 10 }]);
    expect(
      readRateLimits(
        headers({
          'X-RateLimit-Limit': '60',
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': '1700000030',
        }),
        1_700_000_000_000,
      ),
    ).toEqual([{ policy: '', remaining: 0, resetSeconds: 30, quota: 60 }]);
  });

  it('reads nothing from an answer that announces no limit, or garbage', () => {
    expect(readRateLimits(headers({ 'Content-Type': 'application/json' }))).toEqual([]);
    expect(readRateLimits(headers({ RateLimit: '"default"; r=lots; t=1' }))).toEqual([]);
  });
});
