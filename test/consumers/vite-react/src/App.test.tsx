// The app's component against the mocks, rendered in jsdom and happy-dom.
import { createMockApi } from 'user-order-apikit/mocks';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { expect, it } from 'vitest';
import App from './App';
import UserList from './UserList';
import { mock, server } from './test/mock-server';

// React's act() environment flag, as Testing Library sets it.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

async function render(node: React.ReactNode): Promise<HTMLElement> {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => root.render(node));
  return container;
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await act(() => new Promise((r) => setTimeout(r, 20)));
  }
}

it('renders the users the mocks answer, through a lazily loaded component', async () => {
  // A second mock API without the login, on its own origin, for this test only.
  const open = createMockApi({ baseUrl: 'http://open.test', auth: 'off' });
  server.use(...open.handlers);
  const view = await render(<App origin="http://open.test" />);
  await until(() => view.querySelector('ul, [role=alert]') !== null);
  expect(view.querySelector('[role=alert]')).toBeNull();
  const list = view.querySelector('ul')!;
  expect(list.querySelectorAll('li')).toHaveLength(5);
  expect(Number(list.dataset['total'])).toBeGreaterThan(5);
  expect(list.textContent).toContain('admin@example.com');
});

it('renders the error state a typed override asks for', async () => {
  mock.override('listUsers', {
    status: 503,
    body: {
      type: 'urn:apikit:problem:service-unavailable',
      title: 'Service unavailable',
      status: 503,
      detail: 'Down for maintenance.',
      instance: '/api/v1/users',
      requestId: 'r-503',
    },
  });
  // Relative URLs, on whatever origin the environment's page has.
  const view = await render(<UserList />);
  await until(() => view.querySelector('[role=alert]') !== null);
  expect(view.querySelector('[role=alert]')!.textContent).toBe('Down for maintenance.');
});
