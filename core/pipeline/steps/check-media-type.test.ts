import { describe, expect, it } from 'vitest';
import { stepHarness } from '../../../test/support/pipeline/step-harness.js';
import { checkMediaType } from './check-media-type.js';

const { env, admin, user, reaching } = stepHarness();

const json = { 'Content-Type': 'application/json' };

describe('checkMediaType', () => {
  it('is 415 for a body of a media type the operation does not take', async () => {
    const x = await reaching(
      checkMediaType,
      'POST',
      '/api/v1/users',
      {
        ...admin,
        'Content-Type': 'text/plain',
      },
      'hello',
    );
    expect(() => checkMediaType(x)).toThrow(
      expect.objectContaining({ status: 415, slug: 'unsupported-media-type' }),
    );
  });

  it('is 415 for a charset other than UTF-8', async () => {
    const x = await reaching(
      checkMediaType,
      'POST',
      '/api/v1/users',
      {
        ...admin,
        'Content-Type': 'application/json; charset=latin1',
      },
      '{}',
    );
    expect(() => checkMediaType(x)).toThrow(expect.objectContaining({ status: 415 }));
  });

  it('keeps the accepted media type for parseBody', async () => {
    const x = await reaching(checkMediaType, 'POST', '/api/v1/users', { ...admin, ...json }, '{}');
    checkMediaType(x);
    expect(x.mediaType).toBe('application/json');
  });

  it('has nothing to judge on a GET', async () => {
    const x = await reaching(checkMediaType, 'GET', '/api/v1/users/2', user);
    checkMediaType(x);
    expect(x.mediaType).toBeUndefined();
  });
});
