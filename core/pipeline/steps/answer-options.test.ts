import { describe, expect, it } from 'vitest';
import { stepHarness } from '../../../test/support/pipeline/step-harness.js';
import { answerOptions } from './answer-options.js';

const { env, admin, user, reaching } = stepHarness();

describe('answerOptions', () => {
  it('answers OPTIONS with 204 and Allow, Accept-Patch where PATCH is', async () => {
    const list = answerOptions(await reaching(answerOptions, 'OPTIONS', '/api/v1/users'), env);
    expect(list).toEqual({
      status: 204,
      headers: { Allow: 'GET, HEAD, POST, OPTIONS' },
      body: null,
    });
    const one = answerOptions(await reaching(answerOptions, 'OPTIONS', '/api/v1/users/7'), env);
    expect(one?.headers['Accept-Patch']).toBeTruthy();
  });

  it('adds the preflight headers for a CORS preflight', async () => {
    const x = await reaching(answerOptions, 'OPTIONS', '/api/v1/users', {
      Origin: 'https://app.example',
      'Access-Control-Request-Method': 'POST',
    });
    const answer = answerOptions(x, env);
    expect(answer?.headers['Access-Control-Allow-Methods']).toBe('GET, HEAD, POST, OPTIONS');
    expect(x.operationId).toBe('optionsUsers');
  });

  it('hands on every other method', async () => {
    expect(
      answerOptions(await reaching(answerOptions, 'GET', '/api/v1/users'), env),
    ).toBeUndefined();
  });
});
