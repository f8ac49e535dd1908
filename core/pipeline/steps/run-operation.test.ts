import { describe, expect, it } from 'vitest';
import { stepHarness } from '../../../test/support/pipeline/step-harness.js';
import { runOperation } from './run-operation.js';

const { env, store, admin, user, reaching } = stepHarness();

const json = { 'Content-Type': 'application/json' };

describe('runOperation', () => {
  it("renders the handler's result: body, ETag and a 304 for a matching If-None-Match", async () => {
    const answer = await runOperation(
      await reaching(runOperation, 'GET', '/api/v1/users/2', user),
      env,
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body ?? '')).toMatchObject({ id: 2 });
    const etag = answer.headers.ETag as string;
    const again = await reaching(runOperation, 'GET', '/api/v1/users/2', {
      ...user,
      'If-None-Match': etag,
    });
    expect((await runOperation(again, env)).status).toBe(304);
  });

  it("answers the domain's problem as problem+json rather than throwing it", async () => {
    const taken = JSON.stringify({ name: 'Ada again', email: 'ada@example.com' });
    const x = await reaching(runOperation, 'POST', '/api/v1/users', { ...admin, ...json }, taken);
    const answer = await runOperation(x, env);
    expect(answer.status).toBe(409);
    expect(answer.headers['Content-Type']).toBe('application/problem+json');
  });

  it('replays the answer of a repeated Idempotency-Key and refuses it with another body', async () => {
    const headers = { ...admin, ...json, 'Idempotency-Key': 'run-operation-1' };
    const body = JSON.stringify({ name: 'Fay', email: 'fay@example.com' });
    const first = await runOperation(
      await reaching(runOperation, 'POST', '/api/v1/users', headers, body),
      env,
    );
    const replay = await runOperation(
      await reaching(runOperation, 'POST', '/api/v1/users', headers, body),
      env,
    );
    expect(first.status).toBe(201);
    expect(replay).toMatchObject({ status: 201, body: first.body });
    const other = JSON.stringify({ name: 'Gus', email: 'gus@example.com' });
    const reused = await reaching(runOperation, 'POST', '/api/v1/users', headers, other);
    await expect(runOperation(reused, env)).rejects.toMatchObject({ status: 422 });
  });

  it("commits a keyed create's answer with the user: no commit holds one without the other", async () => {
    const headers = { ...admin, ...json, 'Idempotency-Key': 'run-operation-2' };
    const body = JSON.stringify({ name: 'Hal', email: 'hal@example.com' });
    const scope = '1 POST /api/v1/users run-operation-2';
    const commits: Array<{ user: boolean; answer: number | undefined }> = [];
    const write = store.write.bind(store);
    store.write = (mutate) => {
      const data = store.data;
      commits.push({
        user: Object.values(data.users).some((u) => u.email === 'hal@example.com'),
        answer: data.idempotency[scope]?.status,
      });
      return write(mutate);
    };
    try {
      const answer = await runOperation(
        await reaching(runOperation, 'POST', '/api/v1/users', headers, body),
        env,
      );
      expect(answer.status).toBe(201);
      // The claim, then the user with its answer: two commits, not three.
      expect(commits).toEqual([
        { user: false, answer: 0 },
        { user: true, answer: 201 },
      ]);
      expect(store.data.idempotency[scope]).toMatchObject({ status: 201, body: answer.body });
    } finally {
      store.write = write;
    }
  });
});
