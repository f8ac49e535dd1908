import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/** Response headers as `[name, value]` pairs, set in this order. */
export type HeaderList = readonly (readonly [string, string])[];

/**
 * The security headers of API answers (everything but the /docs page), from helmet configured
 * for an API, as OWASP's REST Security Cheat Sheet has it: a JSON answer is never a document,
 * so it needs what keeps a browser from sniffing, framing or rendering it (`nosniff`,
 * `X-Frame-Options`, a CSP that allows nothing) and Referrer-Policy, plus the
 * Cross-Origin-Resource-Policy that lets browsers on other origins read it. helmet's
 * document-only headers (COOP, Origin-Agent-Cluster, X-DNS-Prefetch-Control, X-Download-Options,
 * X-Permitted-Cross-Domain-Policies, X-XSS-Protection, a CSP listing script and style sources)
 * govern pages, scripts and plugins an API answer never has: they go on /docs only
 * (decision 0036). Also carried by the raw answers Node's parser forces (`client-error.ts`).
 */
export const API_SECURITY_HEADERS: HeaderList = recordedHeaders(
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'self'"] },
    },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: { policy: 'no-referrer' },
    // The server speaks plain HTTP (TLS is a proxy's job).
    strictTransportSecurity: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  }),
);

/**
 * The security headers of the /docs page and its assets: helmet's defaults for documents.
 */
export const DOCUMENT_SECURITY_HEADERS: HeaderList = recordedHeaders(
  helmet({
    // An API meant for browsers on other origins (CORS decides who may read).
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    // The server speaks plain HTTP (TLS is a proxy's job): HSTS and an upgrade of /docs'
    // asset requests to https would only break the page.
    strictTransportSecurity: false,
    // "Try it out" calls the API on the page's own origin: said outright (connect-src 'self')
    // rather than left to default-src, so a tightened default cannot break it unnoticed.
    contentSecurityPolicy: {
      directives: { upgradeInsecureRequests: null, connectSrc: ["'self'"] },
    },
  }),
);

/**
 * The headers a header-only middleware (helmet) sets, recorded once on a stand-in response,
 * so that each request gets them from a list instead of helmet's eleven middlewares. Throws
 * if it does anything else, so a helmet upgrade that starts to depend on the request fails at
 * start instead of being frozen wrongly.
 */
function recordedHeaders(middleware: RequestHandler): HeaderList {
  const headers = new Map<string, [string, string]>();
  let finished = false;
  const res = {
    setHeader(name: string, value: string | string[]) {
      if (typeof value !== 'string') throw new Error(`${name}: a header of several values`);
      headers.set(name.toLowerCase(), [name, value]);
      return res;
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  void middleware({ headers: {} } as Request, res as unknown as Response, () => {
    finished = true;
  });
  if (!finished) throw new Error('the security headers middleware did not finish synchronously');
  return [...headers.values()];
}
