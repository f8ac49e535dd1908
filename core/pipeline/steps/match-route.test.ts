import { describe, expect, it } from 'vitest';
import { stepHarness } from '../../../test/support/pipeline/step-harness.js';
import { createExchange, type Exchange } from '../exchange.js';
import { matchRoute } from './match-route.js';

const { env, admin, user, reaching } = stepHarness();

describe('matchRoute', () => {
  it('matches a path of the spec and keeps its raw parameters', async () => {
    const x = await reaching(matchRoute, 'GET', '/api/v1/users/7');
    expect(matchRoute(x, env)).toBeUndefined();
    expect(x.route?.route.template).toBe('/users/{id}');
    expect(x.route?.params).toEqual({ id: '7' });
  });

  it('is 404 for a path under the base that no route matches', async () => {
    const x = await reaching(matchRoute, 'GET', '/api/v1/coffee');
    expect(() => matchRoute(x, env)).toThrow(expect.objectContaining({ status: 404 }));
  });

  it('takes the route an adapter matched already instead of matching again', async () => {
    const x = await reaching(matchRoute, 'GET', '/api/v1/users/7');
    const route = env.routes.match('/users/9');
    const routed = createExchange({ ...x.request, route });
    matchRoute(routed, env);
    expect(routed.route).toBe(route);
  });
});
