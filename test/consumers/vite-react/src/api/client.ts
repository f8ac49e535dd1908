// The app's API client: plain fetch against the contract's paths, relative to the page (an
// origin only where there is no page: Node).

export interface User {
  id: number;
  name: string;
  email: string;
  age: number;
  status: 'ACTIVE' | 'INACTIVE' | 'BLOCKED';
}

export interface UserPage {
  content: User[];
  totalElements: number;
  totalPages: number;
  page: number;
  size: number;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  requestId: string;
}

/** An error answer of the API, with its problem+json body. */
export class ProblemError extends Error {
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.problem = problem;
  }
}

export const apiBase = (origin = ''): string => `${origin}/api/v1`;

/** GET /users: one page of users. */
export async function listUsers(
  origin: string | undefined,
  query: { size?: number; page?: number } = {},
  init: RequestInit = {},
): Promise<UserPage> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) params.set(key, String(value));
  const res = await fetch(`${apiBase(origin)}/users?${params}`, init);
  if (!res.ok) throw new ProblemError((await res.json()) as Problem);
  return (await res.json()) as UserPage;
}
