/**
 * Broken variants of the Lending Library (library.yaml): each breaks one statement of that
 * description, through the fault proxy, and must be caught by the check that reads it from
 * the description's own extensions (decision 0116). The User/Order faults' helpers are reused;
 * every path here is the library's.
 */
import { randomUUID } from 'node:crypto';
import {
  editJson,
  isObject,
  parsed,
  pathOf,
  withoutQuery,
} from '../support/fault-injection/fault-helpers.js';
import type { ProxyRequest, ProxyResponse } from '../support/fault-injection/fault-proxy.js';
import type { Fault } from '../support/fault-injection/faults.js';

const LIB = '/lib';
const BOOK = /^\/lib\/books\/[^/]+$/;
const AUTHOR = /^\/lib\/authors\/[^/]+$/;
const BOOKS_OF = /^\/lib\/authors\/[^/]+\/books$/;
const LOAN_ACTION = (action: string) => new RegExp(`^/lib/loans/(\\d+)/${action}$`);

/** The same answer with another status and the problem's `status` to match. */
function restatus(res: ProxyResponse, status: number): ProxyResponse {
  return editJson({ ...res, status }, (body) => ({ ...(body as object), status }));
}

/** The loan as it is now, read through the same credentials. */
async function currentLoan(
  req: ProxyRequest,
  id: string,
  forward: (r: ProxyRequest) => Promise<ProxyResponse>,
): Promise<ProxyResponse> {
  return forward({ method: 'GET', path: `${LIB}/loans/${id}`, headers: req.headers, body: '' });
}

export const isbnConflict422: Fault = {
  name: 'library-isbn-conflict-422',
  description: 'a book with an ISBN another book has is refused with 422, not the declared 409',
  expectedCheck: 'unique_fields',
  include: ['createAuthor', 'createAuthorBook', 'getBook', 'deleteBook', 'deleteAuthor'],
  create: () => ({
    response: (res, req) =>
      req.method === 'POST' && BOOKS_OF.test(pathOf(req)) && res.status === 409
        ? restatus(res, 422)
        : res,
  }),
};

export const unknownGenreAccepted: Fault = {
  name: 'library-unknown-genre-accepted',
  description: 'a book naming a genre the catalog lacks is stored under another genre, 201',
  expectedCheck: 'unknown_references',
  include: ['listGenres', 'createAuthor', 'createAuthorBook', 'getBook', 'deleteBook'],
  create: () => ({
    request: (req) => {
      const body = parsed(req.body);
      if (req.method !== 'POST' || !BOOKS_OF.test(pathOf(req)) || !isObject(body)) return req;
      return { ...req, body: JSON.stringify({ ...body, genreId: 'poetry' }) };
    },
  }),
};

export const approveTwiceAccepted: Fault = {
  name: 'library-approve-active-loan-noop',
  description:
    'approving a loan already ACTIVE is a 200 no-op, though the machine declares sameState: refused',
  expectedCheck: 'state_transitions',
  include: ['loans', 'createAuthor', 'createAuthorBook'],
  create: () => ({
    response: async (res, req, ctx) => {
      const id = LOAN_ACTION('approve').exec(pathOf(req))?.[1];
      if (req.method !== 'POST' || !id || res.status !== 409) return res;
      const loan = await currentLoan(req, id, ctx.forward);
      return JSON.parse(loan.body).state === 'ACTIVE' ? loan : res;
    },
  }),
};

export const loanDaysWritableWhenActive: Fault = {
  name: 'library-loan-days-writable-when-active',
  description: "a loan's days change after it left REQUESTED (x-apikit-writable-in says not)",
  expectedCheck: 'guarded_writes',
  include: ['loans', 'createAuthor', 'createAuthorBook'],
  create: () => ({
    response: async (res, req, ctx) => {
      const id = /^\/lib\/loans\/(\d+)$/.exec(pathOf(req))?.[1];
      if (req.method !== 'PATCH' || !id || res.status !== 409) return res;
      const loan = await currentLoan(req, id, ctx.forward);
      return editJson(loan, (body) => ({ ...(body as object), ...(parsed(req.body) as object) }));
    },
  }),
};

export const booksOutliveTheirAuthor: Fault = {
  name: 'library-books-outlive-their-author',
  description: 'deleting an author leaves their books readable (x-apikit-cascade says they go)',
  expectedCheck: 'delete_cascade',
  include: ['createAuthor', 'deleteAuthor', 'createAuthorBook', 'getBook', 'listAuthorBooks'],
  create: () => {
    const books = new Map<string, ProxyResponse>();
    const goneAuthors = new Set<string>();
    return {
      response: (res, req) => {
        const path = pathOf(req);
        if (req.method === 'POST' && BOOKS_OF.test(path) && res.status === 201) {
          const book = parsed(res.body);
          if (isObject(book)) books.set(`${LIB}/books/${String(book.id)}`, { ...res, status: 200 });
        }
        if (req.method === 'DELETE' && AUTHOR.test(path) && res.status === 204)
          goneAuthors.add(path.split('/').at(-1)!);
        const kept = books.get(path);
        const authorId = kept && (parsed(kept.body) as { authorId?: string }).authorId;
        if (req.method === 'GET' && BOOK.test(path) && res.status === 404 && authorId)
          return goneAuthors.has(authorId) ? kept : res;
        return res;
      },
    };
  },
};

export const extraGenre: Fault = {
  name: 'library-extra-genre',
  description: 'the fixed catalog of genres lists one more than its documented example',
  expectedCheck: 'fixed_catalog',
  include: ['listGenres', 'getGenre'],
  create: () => ({
    response: (res, req) =>
      req.method === 'GET' && pathOf(req) === `${LIB}/genres` && res.status === 200
        ? editJson(res, (list) => [...(list as unknown[]), { id: 'thriller', name: 'Thriller' }])
        : res,
  }),
};

export const orderByIgnored: Fault = {
  name: 'library-order-by-ignored',
  description:
    'GET /books ignores orderBy (the sort parameter x-apikit-sort names) and sorts by id',
  expectedCheck: 'sort_honoured',
  include: ['listBooks', 'createAuthor', 'createAuthorBook'],
  create: () => ({
    request: (req) =>
      req.method === 'GET' && pathOf(req) === `${LIB}/books` ? withoutQuery(req, 'orderBy') : req,
  }),
};

export const traceIdNotEchoed: Fault = {
  name: 'library-trace-id-not-echoed',
  description: 'X-Trace-Id (the declared request id header) is always a fresh one, never echoed',
  expectedCheck: 'request_id_echo',
  include: ['listGenres'],
  create: () => ({
    response: (res) => ({ ...res, headers: { ...res.headers, 'x-trace-id': randomUUID() } }),
  }),
};

export const wrongPasswordForbidden: Fault = {
  name: 'library-wrong-password-403',
  description: 'a login with a known username and a wrong password is 403, not the declared 401',
  expectedCheck: 'session_tokens',
  include: ['openSession', 'listAuthors'],
  create: () => ({
    response: (res, req) =>
      req.method === 'POST' && pathOf(req) === `${LIB}/session` && res.status === 401
        ? restatus(res, 403)
        : res,
  }),
};

export const loansOpenToMembers: Fault = {
  name: 'library-loans-open-to-members',
  description: 'GET /loans (x-apikit-role: LIBRARIAN) answers a member with the list',
  expectedCheck: 'admin_role_required',
  include: ['listLoans'],
  create: () => ({
    response: (res, req) =>
      req.method === 'GET' && pathOf(req) === `${LIB}/loans` && res.status === 403
        ? { status: 200, headers: { 'content-type': 'application/json' }, body: '[]' }
        : res,
  }),
};

export const problemTitleOfItsOwn: Fault = {
  name: 'library-problem-title-of-its-own',
  description: 'a 404 says "Not Found", not the one title problemTitles gives its type',
  expectedCheck: 'problem_type_title',
  include: ['getAuthor', 'createAuthor'],
  create: () => ({
    response: (res) =>
      res.status === 404
        ? editJson(res, (body) => ({ ...(body as object), title: 'Not Found' }))
        : res,
  }),
};

/** A Location built from the request's URL: the book under its author, where no GET reads it. */
export const bookLocationUnderAuthor: Fault = {
  name: 'library-book-location-under-author',
  description: "a new book's 201 Location names it under its author, not at /books/{bookId}",
  expectedCheck: 'resource_identity',
  include: ['createAuthor', 'createAuthorBook', 'getBook', 'deleteBook', 'deleteAuthor'],
  create: () => ({
    response: (res, req) => {
      const book = parsed(res.body);
      if (req.method !== 'POST' || !BOOKS_OF.test(pathOf(req)) || res.status !== 201) return res;
      if (!isObject(book) || typeof book.id !== 'string') return res;
      const location = `${pathOf(req)}/${encodeURIComponent(book.id)}`;
      return { ...res, headers: { ...res.headers, location } };
    },
  }),
};

export const libraryFaults: Fault[] = [
  isbnConflict422,
  unknownGenreAccepted,
  approveTwiceAccepted,
  loanDaysWritableWhenActive,
  booksOutliveTheirAuthor,
  extraGenre,
  orderByIgnored,
  traceIdNotEchoed,
  wrongPasswordForbidden,
  loansOpenToMembers,
  problemTitleOfItsOwn,
  bookLocationUnderAuthor,
];
