import { useEffect, useState } from 'react';
import { listUsers, ProblemError, type UserPage } from './api/client';

/** The first page of users, or the API's problem detail. Loaded lazily by App. */
export default function UserList({ origin }: { origin?: string }) {
  const [page, setPage] = useState<UserPage>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    listUsers(origin, { size: 5 }, { signal: controller.signal })
      .then(setPage)
      .catch((e: unknown) => {
        if (e instanceof ProblemError) setError(e.problem.detail);
        else if (!controller.signal.aborted) setError(String(e));
      });
    return () => controller.abort();
  }, [origin]);
  if (error) return <p role="alert">{error}</p>;
  if (!page) return <p>Loading…</p>;
  return (
    <ul aria-label="users" data-total={page.totalElements}>
      {page.content.map((user) => (
        <li key={user.id}>
          {user.name} &lt;{user.email}&gt;
        </li>
      ))}
    </ul>
  );
}
