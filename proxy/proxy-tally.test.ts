import { describe, expect, it } from 'vitest';
import { loadSpec } from '../spec/load-spec.js';
import { createProxyTally, formatSummary, judgeExchange, operationMatcher } from './proxy-tally.js';

const security = {
  location: 'request',
  severity: 'Error',
  message: 'Invalid security scheme used',
};
const body = {
  location: 'response.body',
  severity: 'Error',
  message: "must have required property 'email'",
};

describe('judgeExchange', () => {
  it('counts a request finding refused with a 4xx as rejected: a documented 401 is conformant', () => {
    const verdict = judgeExchange(
      { method: 'GET', path: '/api/v1/users', status: 401, reported: [security] },
      'listUsers',
    );
    expect(verdict.violations).toEqual([]);
    expect(verdict.rejected).toEqual([
      { method: 'GET', path: '/api/v1/users', operation: 'listUsers', status: 401, ...security },
    ]);
  });

  it('calls a bad request the target accepted (2xx) or failed on (5xx) a violation', () => {
    for (const status of [200, 201, 500]) {
      const verdict = judgeExchange(
        { method: 'GET', path: '/api/v1/users', status, reported: [security] },
        'listUsers',
      );
      expect(verdict.violations, String(status)).toHaveLength(1);
      expect(verdict.rejected).toEqual([]);
    }
  });

  it('always calls a response finding a violation, whatever the status', () => {
    const verdict = judgeExchange(
      { method: 'GET', path: '/api/v1/users/1', status: 404, reported: [body] },
      'getUser',
    );
    expect(verdict.violations).toHaveLength(1);
  });
});

describe('operationMatcher', () => {
  it('finds operations by method and template, literal paths first', async () => {
    const match = operationMatcher(await loadSpec());
    expect(match('GET', '/users/1')).toBe('getUser');
    expect(match('get', '/users')).toBe('listUsers');
    expect(match('POST', '/auth/login')).toBe('login');
    expect(match('GET', '/nowhere/at/all')).toBeUndefined();
    expect(match('GET', '/users/1/extra/extra')).toBeUndefined();
  });
});

describe('createProxyTally and formatSummary', () => {
  it('totals by operation, splits errors from warnings, and says it in one line per operation', () => {
    let clock = 1_000;
    const tally = createProxyTally(() => clock);
    for (let i = 0; i < 3; i++) tally.request();
    tally.record(
      'getUser',
      {
        violations: [
          { method: 'GET', path: '/api/v1/users/1', status: 200, ...body },
          { method: 'GET', path: '/api/v1/users/1', status: 200, ...body, severity: 'Warning' },
        ],
        rejected: [],
      },
      { method: 'GET', path: '/api/v1/users/1', operation: 'getUser', status: 200 },
    );
    tally.record(
      'listUsers',
      {
        violations: [],
        rejected: [{ method: 'GET', path: '/api/v1/users', status: 401, ...security }],
      },
      { method: 'GET', path: '/api/v1/users', operation: 'listUsers', status: 401 },
    );
    clock += 2_500;
    const summary = tally.summary();
    expect(summary).toMatchObject({
      durationMs: 2_500,
      requests: 3,
      validated: 2,
      violations: 1,
      warnings: 1,
      rejected: 1,
      succeeded: 1,
      serverErrors: 0,
      statuses: { '200': 1, '401': 1 },
      byOperation: {
        getUser: { requests: 1, violations: 1, warnings: 1, rejected: 0 },
        listUsers: { requests: 1, violations: 0, warnings: 0, rejected: 1 },
      },
    });
    expect(formatSummary(summary).split('\n')).toEqual([
      'apikit proxy: 3 requests (2 validated), 1 violation, 1 warning, 1 rejected as documented, in 2.5 s',
      '  getUser: 1 violation, 1 warning in 1 request',
    ]);
    expect(tally.findings().violations).toHaveLength(2);
  });

  it('counts statuses, keeps every 5xx answer and lists each in the summary (decision 0099)', () => {
    const tally = createProxyTally(() => 0);
    const none = { violations: [], rejected: [] };
    tally.record('getUser', none, {
      method: 'GET',
      path: '/api/v1/users/1',
      operation: 'getUser',
      status: 500,
    });
    tally.record('POST /api/v1/nowhere', none, {
      method: 'POST',
      path: '/api/v1/nowhere',
      status: 503,
    });
    tally.record('getUser', none, {
      method: 'GET',
      path: '/api/v1/users/2',
      operation: 'getUser',
      status: 304,
    });
    const summary = tally.summary();
    expect(summary).toMatchObject({
      validated: 3,
      succeeded: 1,
      serverErrors: 2,
      statuses: { '304': 1, '500': 1, '503': 1 },
    });
    const { serverErrors } = tally.findings();
    expect(serverErrors).toEqual([
      { method: 'GET', path: '/api/v1/users/1', operation: 'getUser', status: 500 },
      { method: 'POST', path: '/api/v1/nowhere', status: 503 },
    ]);
    expect(formatSummary(summary, serverErrors).split('\n').slice(1)).toEqual([
      '  5xx: GET /api/v1/users/1 -> 500 (getUser)',
      '  5xx: POST /api/v1/nowhere -> 503',
    ]);
  });
});
