import { mock } from './test/mock-server';
import { login } from './test/login';
import { renderUsers } from './users';

test('renders the users the mocks answer into the document', async () => {
  const list = document.body.appendChild(document.createElement('ul'));
  await renderUsers(list, await login());
  expect(list.querySelectorAll('li')).toHaveLength(3);
  expect(list.textContent).toContain('Ada Admin');
});

test('shows an error state the test asks for (a 503 problem, once)', async () => {
  const auth = await login();
  mock.override(
    'listUsers',
    {
      status: 503,
      body: {
        type: 'urn:apikit:problem:service-unavailable',
        title: 'Service unavailable',
        status: 503,
        detail: 'Down for maintenance.',
        instance: '/api/v1/users',
        requestId: 'req-1',
      },
    },
    { times: 1 },
  );
  const list = document.createElement('ul');
  await expect(renderUsers(list, auth)).rejects.toThrow('GET /api/v1/users answered 503');
  await renderUsers(list, auth);
  expect(list.children).toHaveLength(3);
});
