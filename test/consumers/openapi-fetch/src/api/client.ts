// The app's API client: openapi-fetch typed by the paths apikit ships, with its default
// serializers (arrays exploded: `expand=user&expand=items`, `sort=age%2Cdesc&sort=name`), and
// the bearer token added by a middleware once logged in.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from 'user-order-apikit/types';

export function createApi(baseUrl = 'http://localhost/api/v1') {
  let token: string | undefined;
  const bearer: Middleware = {
    onRequest({ request }) {
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
  const client = createClient<paths>({ baseUrl });
  client.use(bearer);
  return {
    client,
    /** Logs in; every later call carries the access token. */
    async login(username: string, password: string): Promise<void> {
      const { data, error } = await client.POST('/auth/login', { body: { username, password } });
      if (error) throw new Error(`login failed: ${error.status} ${error.title}`);
      token = data.accessToken;
    },
  };
}
