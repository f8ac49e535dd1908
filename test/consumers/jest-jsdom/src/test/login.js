// The demo administrator's access token (MOCK_DEMO_PASSWORDS), through the mocked login.
export async function login() {
  const res = await fetch('/api/v1/auth/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' }),
  });
  expect(res.status).toBe(200);
  const { accessToken } = await res.json();
  return { Authorization: `Bearer ${accessToken}` };
}
