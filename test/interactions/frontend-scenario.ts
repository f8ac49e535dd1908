// What a frontend's tests do with the mocks, recorded: a user list with paging and a
// conditional GET, a profile page, an order flow, and the errors the app handles.
import type { InteractionFile } from '../../spec/interactions/interaction-file.js';
import { startRecording } from './record-with-mocks.js';

export const USERS_TEST = { file: 'src/users.test.tsx', name: 'UserList > pages through users' };
export const PROFILE_TEST = {
  file: 'src/profile.test.tsx',
  name: 'Profile > shows a user and their orders',
};
export const ORDER_TEST = {
  file: 'src/orders.test.tsx',
  name: 'Orders > places and cancels an order',
};
export const ERRORS_TEST = { file: 'src/errors.test.tsx', name: 'Errors > shows what went wrong' };

/** Records the scenario through createMockApi's answer() and returns the interaction file. */
export async function recordFrontendScenario(): Promise<InteractionFile> {
  const rec = startRecording();
  const token = await rec.login(USERS_TEST);
  const json = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const auth = { Authorization: `Bearer ${token}` };

  const page = await rec.send(USERS_TEST, '/users?size=2&page=0', { headers: auth });
  if (page.status !== 200) throw new Error(`listUsers: ${page.status}`);
  const one = await rec.send(USERS_TEST, '/users/2', { headers: auth });
  const etag = one.headers.get('etag') ?? '';
  await rec.send(USERS_TEST, '/users/2', { headers: { ...auth, 'If-None-Match': etag } });

  await rec.login(PROFILE_TEST);
  const created = await rec.send(PROFILE_TEST, '/users', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: 'Grace Hopper', email: 'grace@example.com', age: 85 }),
  });
  const userId = (created.body as { id: number }).id;
  await rec.send(PROFILE_TEST, `/users/${userId}`, { headers: auth });
  await rec.send(PROFILE_TEST, `/users/${userId}/activate`, { method: 'POST', headers: auth });

  const order = await rec.send(ORDER_TEST, `/users/${userId}/orders`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      product: 'Keyboard',
      categoryId: 2,
      items: [{ product: 'Keyboard', quantity: 1 }],
    }),
  });
  const orderId = (order.body as { id: number }).id;
  await rec.send(ORDER_TEST, `/users/${userId}/orders`, { headers: auth });
  await rec.send(ORDER_TEST, `/orders/${orderId}`, { headers: auth });
  await rec.send(ORDER_TEST, `/orders/${orderId}/cancel`, { method: 'POST', headers: auth });
  await rec.send(ORDER_TEST, `/orders/${orderId}/cancel`, { method: 'POST', headers: auth });
  await rec.send(ORDER_TEST, '/categories', { headers: auth });

  await rec.send(ERRORS_TEST, '/users', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: 'Grace Again', email: 'grace@example.com' }),
  });
  await rec.send(ERRORS_TEST, '/users', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: '', email: 'nope', age: 12 }),
  });
  await rec.send(ERRORS_TEST, '/users/2');
  await rec.send(ERRORS_TEST, '/users/987654', { headers: auth });
  // A refusal from a state (activating a BLOCKED user) and a stale validator (412).
  const blocked = await rec.send(ERRORS_TEST, '/users', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: 'Blocked Person', email: 'blocked@example.com' }),
  });
  const blockedId = (blocked.body as { id: number }).id;
  await rec.send(ERRORS_TEST, `/admin/users/${blockedId}/block`, { method: 'POST', headers: auth });
  await rec.send(ERRORS_TEST, `/users/${blockedId}/activate`, { method: 'POST', headers: auth });
  await rec.send(ERRORS_TEST, `/users/${userId}`, {
    method: 'PATCH',
    headers: { ...json, 'If-Match': '"not-the-current-one"' },
    body: JSON.stringify({ name: 'Grace B. Hopper' }),
  });
  await rec.send(PROFILE_TEST, `/users/${userId}`, {
    method: 'PATCH',
    headers: { ...json, 'If-Match': created.headers.get('etag') ?? '' },
    body: JSON.stringify({ age: 86 }),
  });
  return rec.file('frontend-app');
}
