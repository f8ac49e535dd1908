// Renders the first users' names into a list, as an app's page would.
export async function renderUsers(list, headers) {
  const res = await fetch('/api/v1/users?size=3', { headers });
  if (!res.ok) throw new Error(`GET /api/v1/users answered ${res.status}`);
  const page = await res.json();
  list.replaceChildren(
    ...page.content.map((user) =>
      Object.assign(document.createElement('li'), { textContent: user.name }),
    ),
  );
}
