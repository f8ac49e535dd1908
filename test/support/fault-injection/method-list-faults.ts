/**
 * Faults that each break one clause about the lists a path's answers carry (decision 0121):
 * `Allow`, a preflight's `Access-Control-Allow-Methods` and `Accept-Patch`, each compared with
 * the methods and PATCH media types the spec declares on the path.
 */
import { editHeaders } from './fault-helpers.js';
import type { ProxyRequest, ProxyResponse } from './fault-proxy.js';
import type { Fault } from './faults.js';

const isOptions = (_res: ProxyResponse, req: ProxyRequest) => req.method === 'OPTIONS';
const isPreflight = (res: ProxyResponse, req: ProxyRequest) =>
  isOptions(res, req) && req.headers['access-control-request-method'] !== undefined;

/** The list without `member` (compared case-insensitively), as `a, b`. */
const without = (list: string, member: string) =>
  list
    .split(/\s*,\s*/)
    .filter((m) => m.toLowerCase() !== member.toLowerCase())
    .join(', ');

export const optionsAllowMissesPatch: Fault = {
  name: 'options-allow-misses-patch',
  description:
    'Allow on OPTIONS of a user leaves out PATCH (the method list built before PATCH was added)',
  expectedCheck: 'allow_matches_path',
  include: ['optionsUser', 'updateUser'],
  create: () =>
    editHeaders(
      (res, req) => isOptions(res, req) && /\bPATCH\b/.test(res.headers['allow'] ?? ''),
      (h) => ({ ...h, allow: without(h['allow']!, 'PATCH') }),
    ),
};

export const preflightAllowMethodsEchoed: Fault = {
  name: 'preflight-allow-methods-echoed',
  description:
    "a CORS preflight's Access-Control-Allow-Methods echoes the method asked for, not the path's methods",
  expectedCheck: 'allow_matches_path',
  include: ['optionsUsers', 'listUsers'],
  create: () => ({
    response: (res, req) =>
      isPreflight(res, req) && res.headers['access-control-allow-methods'] !== undefined
        ? {
            ...res,
            headers: {
              ...res.headers,
              'access-control-allow-methods': req.headers['access-control-request-method']!,
            },
          }
        : res,
  }),
};

export const optionsAcceptPatchJsonOnly: Fault = {
  name: 'options-accept-patch-json-only',
  description:
    'Accept-Patch on OPTIONS names application/json only, though PATCH takes merge-patch too',
  expectedCheck: 'accept_patch_matches',
  include: ['optionsUser', 'updateUser'],
  create: () =>
    editHeaders(
      (res, req) => isOptions(res, req) && res.headers['accept-patch'] !== undefined,
      (h) => ({
        ...h,
        'accept-patch': without(h['accept-patch']!, 'application/merge-patch+json'),
      }),
    ),
};

export const patch415AcceptPatchJsonPatch: Fault = {
  name: 'patch-415-accept-patch-json-patch',
  description:
    "PATCH's 415 names application/json-patch+json in Accept-Patch, a type PATCH does not take",
  expectedCheck: 'accept_patch_matches',
  include: ['updateUser', 'createUser'],
  create: () =>
    editHeaders(
      (res, req) => req.method === 'PATCH' && res.status === 415,
      (h) => ({ ...h, 'accept-patch': 'application/json, application/json-patch+json' }),
    ),
};
