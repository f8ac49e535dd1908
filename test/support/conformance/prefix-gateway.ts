import { startTamperingProxy, type ProxyResponse } from './stateful-test-proxy.js';

/** A gateway on 127.0.0.1, port 0: `url` is its origin. */
export interface PrefixGateway {
  url: string;
  close(): Promise<void>;
}

/**
 * A reverse proxy that serves an implementation under a path prefix, as an API gateway does:
 * `/svc/api/v1/users` is forwarded as `/api/v1/users`, and the path-absolute `Location`,
 * `Content-Location` and `Link` targets of the answers get the prefix back. Anything outside
 * the prefix is 404. For tests only; the proxying is {@link startTamperingProxy}'s.
 *
 * @example
 * const gateway = await startPrefixGateway(server.url, '/svc');
 * await runConformance({ baseUrl: `${gateway.url}/svc/api/v1`, ... });
 */
export function startPrefixGateway(upstream: string, prefix: string): Promise<PrefixGateway> {
  return startTamperingProxy(upstream, {
    request: (req) =>
      req.path.startsWith(`${prefix}/`)
        ? { ...req, path: req.path.slice(prefix.length) }
        : { status: 404, headers: { 'content-type': 'text/plain' }, body: 'no route' },
    response: (res) => withPrefix(res, prefix),
  });
}

function withPrefix(res: ProxyResponse, prefix: string): ProxyResponse {
  const headers = { ...res.headers };
  for (const name of ['location', 'content-location'])
    if (headers[name]?.startsWith('/')) headers[name] = prefix + headers[name];
  if (headers.link) headers.link = headers.link.replace(/<\//g, `<${prefix}/`);
  return { ...res, headers };
}
