import { C, clause, judged, split, type Rule } from './rule.js';

const SHARED = C('HTTP semantics shared by every path');
const REQUESTS = C('Precise rules / Requests');

/** OPTIONS: its 204 and Allow, the unknown path, and Accept-Patch where PATCH is. */
export const httpOptionsRules: Rule[] = [
  split(
    'http.method.options-allow',
    'OPTIONS everywhere: 204 with Allow; Allow lists OPTIONS always, and HEAD wherever GET is',
    SHARED,
    [
      clause(
        'status-204',
        'OPTIONS answers 204 (no content)',
        ['status_code_conformance'],
        ['options-answers-200'],
      ),
      clause(
        'allow-declared',
        "Allow lists the path's declared methods and no other (on every OPTIONS answer, as a set, in any order and letter case)",
        ['allow_header_conformance', 'allow_matches_path'],
        ['options-allow-every-method', 'options-allow-misses-patch'],
      ),
      clause(
        'allow-options',
        'Allow lists OPTIONS always',
        ['allow_header_conformance'],
        ['options-allow-misses-options'],
      ),
      clause(
        'allow-head',
        'Allow lists HEAD wherever GET is',
        ['allow_header_conformance'],
        ['options-allow-misses-head'],
      ),
      clause(
        'allow-on-preflight',
        'a CORS preflight is an OPTIONS answer like any other: 204 with Allow (the answer of a probe, judged by the response checks, 0129)',
        ['response_headers_conformance'],
        ['preflight-without-allow'],
      ),
    ],
  ),
  judged(
    'http.method.options-unknown-404',
    'OPTIONS on an unknown path is 404',
    REQUESTS,
    ['strict_routing'],
    ['options-unknown-204'],
  ),
  split(
    'http.method.options-accept-patch',
    "Accept-Patch is on OPTIONS of paths that take PATCH (and on PATCH's 415)",
    REQUESTS,
    [
      clause(
        'options',
        'OPTIONS of a path that takes PATCH carries Accept-Patch',
        ['response_headers_conformance'],
        ['options-without-accept-patch'],
      ),
      clause(
        'patch-415',
        "PATCH's 415 carries Accept-Patch",
        ['response_headers_conformance'],
        ['patch-415-without-accept-patch'],
      ),
      clause(
        'options-types',
        "the Accept-Patch of OPTIONS names exactly the media types the path's PATCH takes (its requestBody's), as a set",
        ['accept_patch_matches'],
        ['options-accept-patch-json-only'],
      ),
      clause(
        'patch-415-types',
        "the Accept-Patch of PATCH's 415 names exactly the media types PATCH takes, as a set",
        ['accept_patch_matches'],
        ['patch-415-accept-patch-json-patch'],
      ),
    ],
  ),
];
