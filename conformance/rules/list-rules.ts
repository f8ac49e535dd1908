import { C, clause, I, judged, noCheck, split, type Rule } from './rule.js';

const USERS = C('Users');
const IDS = C('Precise rules / Identifiers and ordering');
const HEADERS = C('Precise rules / Headers');

/** Paging, sorting and filtering of lists (expansion is with the orders). */
export const listRules: Rule[] = [
  split(
    'lists.filter.status',
    'GET /users?status= (ACTIVE, INACTIVE, BLOCKED): only users in that status',
    I('Endpoints / Users'),
    [
      clause(
        'only-that-status',
        'every user listed is in the status asked for, for each status',
        ['filter_honoured'],
        ['status-filter-ignored'],
      ),
      clause(
        'every-user-in-it',
        'every user in that status is listed (as the unfiltered list shows them)',
        ['filter_honoured'],
        ['status-filter-drops-blocked'],
      ),
    ],
  ),
  judged(
    'lists.filter.unknown-status-400',
    'an unknown status value: 400',
    C('Errors: RFC 9457 problem details'),
    ['negative_data_rejection'],
    ['unknown-status-ignored'],
  ),
  split(
    'lists.paging.size',
    'page (>= 0, default 0), size (1-100, default 20) are honoured',
    USERS,
    [
      clause(
        'size-default',
        'without size, a page holds 20 items (or all there are) and says size 20',
        ['paging_invariants'],
        ['size-default-10'],
      ),
      clause(
        'size-honoured',
        'size=N: a page of at most N items',
        ['paging_invariants'],
        ['size-ignored'],
      ),
      clause(
        'page-default',
        'without page, the first page (page 0)',
        ['paging_invariants'],
        ['page-default-second'],
      ),
      clause(
        'page-honoured',
        'page=N at size S holds items N*S+1 to N*S+S of the list, none skipped or repeated',
        ['paging_invariants'],
        ['page-skips-one'],
      ),
    ],
  ),
  split(
    'lists.paging.totals',
    'UserPage = content, totalElements, totalPages, page, size; consistent totals',
    USERS,
    [
      clause(
        'total-elements',
        'totalElements counts every item of the list',
        ['paging_invariants', 'response_schema_conformance'],
        ['paging-totals-off-by-one'],
      ),
      clause(
        'total-pages',
        'totalPages = ceil(totalElements / size)',
        ['paging_invariants'],
        ['total-pages-floor'],
      ),
      clause(
        'page-echoed',
        'page and size say the page asked for',
        ['paging_invariants'],
        ['page-echo-zero'],
      ),
    ],
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
  split(
    'lists.paging.link',
    'a Link header (RFC 8288): first and last always, prev and next only when in range; other query parameters kept',
    HEADERS,
    [
      clause(
        'first',
        'rel="first" on every page, to page 0',
        ['paging_invariants'],
        ['link-first-missing'],
      ),
      clause(
        'last',
        'rel="last" on every page, to the last page',
        ['paging_invariants'],
        ['link-last-missing'],
      ),
      clause(
        'prev',
        'rel="prev" exactly when a previous page exists, to it',
        ['paging_invariants'],
        ['link-prev-on-first-page'],
      ),
      clause(
        'next',
        'rel="next" exactly when a next page exists, to it',
        ['paging_invariants'],
        ['link-next-missing'],
      ),
      clause(
        'query-kept',
        'every link keeps the other query parameters (size, the filter)',
        ['paging_invariants'],
        ['link-drops-filter'],
      ),
      clause(
        'every-page-answer',
        'every page answer of the run, whatever else it was asked with (a sort), carries these relations',
        ['page_links'],
        ['link-last-missing-when-sorted'],
      ),
    ],
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
  split(
    'lists.sort.honoured',
    'sort orders the list; default id ascending; ties break by id; null age last; strings by code point',
    IDS,
    [
      clause(
        'default-order',
        'without sort: by id ascending (x-apikit-sort default)',
        ['sort_honoured'],
        ['sort-default-desc'],
      ),
      clause(
        'ascending',
        'sort=field,asc: by that field ascending, for each field of the parameter',
        ['sort_honoured'],
        ['sort-asc-ignored'],
      ),
      clause(
        'descending',
        'sort=field,desc: by that field descending, for each field of the parameter',
        ['sort_honoured'],
        ['sort-desc-ignored'],
      ),
      clause(
        'bare-field-ascending',
        'sort=field without a direction: ascending',
        ['sort_honoured'],
        ['sort-bare-field-desc'],
      ),
      clause(
        'second-key',
        'sort repeated: by the first key, its ties by the second',
        ['sort_honoured'],
        ['sort-second-key-ignored'],
      ),
      clause(
        'tie-break',
        'ties break by id ascending, whatever the direction',
        ['sort_honoured'],
        ['sort-desc-ties-reversed'],
      ),
      clause(
        'nulls-last',
        'null (or absent) values last, in either direction',
        ['sort_honoured'],
        ['sort-desc-nulls-first'],
      ),
      clause(
        'code-point',
        'strings compare by Unicode code point, not by locale',
        ['sort_honoured'],
        ['sort-strings-by-locale'],
      ),
      clause(
        'before-paging',
        'the whole list is sorted, then paged: a small page is the head of the sorted list',
        ['sort_honoured'],
        ['sort-after-paging'],
      ),
    ],
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
