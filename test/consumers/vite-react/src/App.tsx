import { lazy, Suspense } from 'react';

// A lazily loaded chunk: in the browser it must come from the server, not from the mocks.
const UserList = lazy(() => import('./UserList'));

export default function App({ origin }: { origin?: string }) {
  return (
    <main>
      <h1>Users</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <UserList origin={origin} />
      </Suspense>
    </main>
  );
}
