// The app's component against the mocks, mounted with @vue/test-utils in jsdom and happy-dom
// (vite.config.ts); src/test/setup.ts, the README's, resets the mocks after every test.
import { enableAutoUnmount, mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, expect, it, vi } from 'vitest';
import { mock } from '../test/mock-server';
import UserList from './UserList.vue';

enableAutoUnmount(afterEach);

/** Waits until the component shows its list or its error. */
async function settled(view: VueWrapper): Promise<void> {
  await vi.waitFor(() => expect(view.find('ul, [role=alert]').exists()).toBe(true), {
    timeout: 5000,
  });
}

it('logs in and lists the first five users, through relative URLs', async () => {
  const view = mount(UserList);
  await settled(view);
  expect(view.find('[role=alert]').exists()).toBe(false);
  const names = view.findAll('li').map((li) => li.text());
  expect(names).toHaveLength(5);
  expect(names.every((name) => name.length > 0)).toBe(true);
  expect(Number(view.get('ul').attributes('data-total'))).toBeGreaterThan(5);
});

it('shows the problem’s detail that a typed override answers, once', async () => {
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
  const failed = mount(UserList);
  await settled(failed);
  expect(failed.get('[role=alert]').text()).toBe('Down for maintenance.');
  // Once: the next mount gets the real list again.
  const again = mount(UserList);
  await settled(again);
  expect(again.findAll('li')).toHaveLength(5);
});
