import { C, I, judged, noCheck, type Rule } from './rule.js';

const USERS = C('Users');
const IDS = C('Precise rules / Identifiers and ordering');
const HEADERS = C('Precise rules / Headers');

/** Paging, sorting and filtering of lists (expansion is with the orders). */
export const listRules: Rule[] = [
  judged(
    'lists.filter.status',
    'GET /users?status= (ACTIVE, INACTIVE, BLOCKED): only users in that status',
    I('Endpoints / Users'),
    ['filter_honoured'],
    ['status-filter-ignored'],
  ),
  judged(
    'lists.filter.unknown-status-400',
    'an unknown status value: 400',
    C('Errors: RFC 9457 problem details'),
    ['negative_data_rejection'],
    ['unknown-status-ignored'],
  ),
  judged(
    'lists.paging.size',
    'page (>= 0, default 0), size (1-100, default 20) are honoured',
    USERS,
    ['paging_invariants'],
    ['size-ignored'],
  ),
  judged(
    'lists.paging.totals',
    'UserPage = content, totalElements, totalPages, page, size; consistent totals',
    USERS,
    ['paging_invariants', 'response_schema_conformance'],
    ['paging-totals-off-by-one'],
  ),
  judged(
    'lists.paging.past-end',
    'a page past the end: 200 with empty content',
    USERS,
    ['paging_invariants'],
    ['past-end-serves-last-page'],
  ),
  judged(
    'lists.paging.size-over-100',
    'size over 100: 400',
    C('Errors: RFC 9457 problem details'),
    ['negative_data_rejection'],
    ['size-over-100-clamped'],
  ),
  judged(
    'lists.paging.link',
    'a Link header (RFC 8288): first and last always, prev and next only when in range; other query parameters kept',
    HEADERS,
    ['paging_invariants'],
    ['link-next-missing'],
  ),
  judged(
    'lists.sort.accepted',
    'sort field or field,asc|desc, repeatable; fields id, name, email, age, createdAt',
    USERS,
    ['positive_data_acceptance', 'not_a_server_error'],
    ['sort-by-email-crashes'],
  ),
  judged(
    'lists.sort.unknown-400',
    'an unknown sort field: 400',
    C('Errors: RFC 9457 problem details'),
    ['negative_data_rejection'],
    ['unknown-sort-ignored'],
  ),
  judged(
    'lists.sort.honoured',
    'sort orders the list; default id ascending; ties break by id; null age last; strings by code point',
    IDS,
    ['sort_honoured'],
    ['sort-desc-ignored'],
    "the page of size 100 without sort and for each field of the sort parameter's pattern, ascending and descending; one key at a time (x-apikit-sort)",
  ),
  judged(
    'lists.plain-arrays',
    'orders, roles and categories lists are plain arrays by id',
    IDS,
    ['sort_honoured', 'response_schema_conformance'],
    ['roles-listed-newest-first'],
    "a user's orders and roles are judged on what the run made (one of each), so by id only where two or more are listed (x-apikit-sort)",
  ),
];
