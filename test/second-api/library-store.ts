/**
 * The Lending Library's data and rules (test/second-api/library.yaml), in memory: authors,
 * books made under them, loans with their state machine, a fixed catalog of genres and two
 * accounts. No HTTP here: `library-server.ts` turns requests into these calls. A refusal is a
 * `LibraryProblem` naming its status and problem slug.
 */

export interface Author {
  id: string;
  name: string;
  born: number | null;
}
export interface Book {
  id: string;
  authorId: string;
  title: string;
  isbn: string;
  genreId: string;
  year: number | null;
}
/** What a create or a PUT of a book sends. */
export type BookInput = Omit<Book, 'id' | 'authorId'>;
export type LoanState = 'REQUESTED' | 'ACTIVE' | 'RETURNED' | 'LOST';
export interface Loan {
  id: number;
  bookId: string;
  days: number;
  state: LoanState;
}
export interface Account {
  username: string;
  password: string;
  role: 'MEMBER' | 'LIBRARIAN';
}

/** A stored record and the time of its last change (ms, for `Last-Modified`). */
export interface Stored<T> {
  value: T;
  changedAt: number;
}

export class LibraryProblem extends Error {
  constructor(
    readonly status: number,
    readonly slug: string,
    detail: string,
  ) {
    super(detail);
  }
}

export const GENRES = [
  { id: 'essay', name: 'Essay' },
  { id: 'fantasy', name: 'Fantasy' },
  { id: 'history', name: 'History' },
  { id: 'poetry', name: 'Poetry' },
  { id: 'science-fiction', name: 'Science fiction' },
] as const;

export const ACCOUNTS: Account[] = [
  { username: 'member@library.test', password: 'member-secret-1', role: 'MEMBER' },
  { username: 'librarian@library.test', password: 'librarian-secret-1', role: 'LIBRARIAN' },
];

/** Which action moves a loan from which state to which. */
export const LOAN_MOVES: Record<string, { from: LoanState[]; to: LoanState }> = {
  approve: { from: ['REQUESTED'], to: 'ACTIVE' },
  return: { from: ['ACTIVE'], to: 'RETURNED' },
  lose: { from: ['ACTIVE'], to: 'LOST' },
};

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const notFound = (what: string) =>
  new LibraryProblem(404, 'no-such-thing', `${what} does not exist.`);

export class LibraryStore {
  readonly authors = new Map<string, Stored<Author>>();
  readonly books = new Map<string, Stored<Book>>();
  readonly loans = new Map<number, Stored<Loan>>();
  private nextAuthor = 1;
  private nextBook = 1;
  private nextLoan = 1;
  private stamp(): number {
    return Date.now();
  }

  author(id: string): Stored<Author> {
    const found = this.authors.get(id);
    if (!found) throw notFound(`Author ${id}`);
    return found;
  }
  book(id: string): Stored<Book> {
    const found = this.books.get(id);
    if (!found) throw notFound(`Book ${id}`);
    return found;
  }
  loan(id: number): Stored<Loan> {
    const found = this.loans.get(id);
    if (!found) throw notFound(`Loan ${id}`);
    return found;
  }

  sortedAuthors(): Author[] {
    return [...this.authors.values()].map((s) => s.value).sort((a, b) => byCodePoint(a.id, b.id));
  }

  createAuthor(input: { name: string; born?: number | null }): Stored<Author> {
    const id = `au-${this.nextAuthor++}`;
    const stored = {
      value: { id, name: input.name, born: input.born ?? null },
      changedAt: this.stamp(),
    };
    this.authors.set(id, stored);
    return stored;
  }

  updateAuthor(id: string, patch: Partial<Author>): Stored<Author> {
    const stored = this.author(id);
    const value = { ...stored.value };
    if (patch.name !== undefined) value.name = patch.name;
    if ('born' in patch) value.born = patch.born ?? null;
    const next = { value, changedAt: this.stamp() };
    this.authors.set(id, next);
    return next;
  }

  deleteAuthor(id: string): void {
    this.author(id);
    this.authors.delete(id);
    for (const book of [...this.books.values()])
      if (book.value.authorId === id) this.deleteBook(book.value.id);
  }

  booksOf(authorId: string): Book[] {
    this.author(authorId);
    return this.sortedBooks([]).filter((b) => b.authorId === authorId);
  }

  /** Every book, by the `orderBy` keys (`field` or `field,desc`), ties by id; nulls first. */
  sortedBooks(keys: string[]): Book[] {
    const order = keys.map((k) => {
      const [field, direction] = k.split(',') as [keyof Book, string | undefined];
      return { field, sign: direction === 'desc' ? -1 : 1 };
    });
    const compare = (a: Book, b: Book): number => {
      for (const { field, sign } of order) {
        const [x, y] = [a[field], b[field]];
        if (x === y) continue;
        if (x === null) return -1;
        if (y === null) return 1;
        return sign * (typeof x === 'number' ? x - (y as number) : byCodePoint(x, y as string));
      }
      return byCodePoint(a.id, b.id);
    };
    return [...this.books.values()].map((s) => s.value).sort(compare);
  }

  private checkBook(input: Omit<Book, 'id' | 'authorId'>, self?: string): void {
    if (!GENRES.some((g) => g.id === input.genreId))
      throw new LibraryProblem(422, 'unknown-genre', `There is no genre ${input.genreId}.`);
    for (const other of this.books.values())
      if (other.value.isbn === input.isbn && other.value.id !== self)
        throw new LibraryProblem(409, 'isbn-taken', `ISBN ${input.isbn} is catalogued already.`);
  }

  createBook(authorId: string, input: Omit<Book, 'id' | 'authorId'>): Stored<Book> {
    this.author(authorId);
    this.checkBook(input);
    const id = `bk-${this.nextBook++}`;
    const value = { id, authorId, ...input, year: input.year ?? null };
    const stored = { value, changedAt: this.stamp() };
    this.books.set(id, stored);
    return stored;
  }

  replaceBook(id: string, input: Omit<Book, 'id' | 'authorId'>): Stored<Book> {
    const stored = this.book(id);
    this.checkBook(input, id);
    const value = { id, authorId: stored.value.authorId, ...input, year: input.year ?? null };
    const next = { value, changedAt: this.stamp() };
    this.books.set(id, next);
    return next;
  }

  deleteBook(id: string): void {
    this.book(id);
    this.books.delete(id);
    for (const loan of [...this.loans.values()])
      if (loan.value.bookId === id) this.loans.delete(loan.value.id);
  }

  createLoan(bookId: string, days: number): Stored<Loan> {
    this.book(bookId);
    const value: Loan = { id: this.nextLoan++, bookId, days, state: 'REQUESTED' };
    const stored = { value, changedAt: this.stamp() };
    this.loans.set(value.id, stored);
    return stored;
  }

  updateLoan(id: number, days: number | undefined): Stored<Loan> {
    const stored = this.loan(id);
    if (stored.value.state !== 'REQUESTED')
      throw new LibraryProblem(
        409,
        'loan-state',
        `Loan ${id} is ${stored.value.state}: only a REQUESTED loan changes.`,
      );
    const next = {
      value: { ...stored.value, days: days ?? stored.value.days },
      changedAt: this.stamp(),
    };
    this.loans.set(id, next);
    return next;
  }

  moveLoan(id: number, action: string): Stored<Loan> {
    const stored = this.loan(id);
    const move = LOAN_MOVES[action]!;
    if (!move.from.includes(stored.value.state))
      throw new LibraryProblem(
        409,
        'loan-state',
        `Loan ${id} is ${stored.value.state}: it cannot ${action}.`,
      );
    const next = { value: { ...stored.value, state: move.to }, changedAt: this.stamp() };
    this.loans.set(id, next);
    return next;
  }

  sortedLoans(): Loan[] {
    return [...this.loans.values()].map((s) => s.value).sort((a, b) => a.id - b.id);
  }
}
