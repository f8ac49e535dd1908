import { ApiProblem } from './api-problem.js';
import type { Category } from './dto.js';
import type { DomainContext } from './ports.js';
import type { Resource } from './resource.js';

/** The fixed category catalog, by id. It is not part of the data set: it never changes. */
export const CATEGORIES: readonly Category[] = Object.freeze([
  { id: 1, name: 'Books' },
  { id: 2, name: 'Electronics' },
  { id: 3, name: 'Clothing' },
  { id: 4, name: 'Home & Garden' },
  { id: 5, name: 'Toys' },
]);

function findCategory(id: number): Category | undefined {
  return CATEGORIES.find((category) => category.id === id);
}

/**
 * The category catalog. Its modification time is the data set's creation time (first start or
 * last reset), as the contract fixes for the catalogs.
 *
 * @example
 * (await listCategories(ctx)).body[0]; // { id: 1, name: 'Books' }
 */
export async function listCategories(ctx: DomainContext): Promise<Resource<Category[]>> {
  return {
    body: CATEGORIES.map((category) => ({ ...category })),
    lastModified: await ctx.repo.dataSetCreatedAt(),
  };
}

/**
 * One category; an unknown id is 404 `not-found`.
 *
 * @example
 * (await getCategory(ctx, 2)).body; // { id: 2, name: 'Electronics' }
 */
export async function getCategory(ctx: DomainContext, id: number): Promise<Resource<Category>> {
  const category = findCategory(id);
  if (!category) throw new ApiProblem('not-found', `Category ${id} does not exist.`);
  return { body: { ...category }, lastModified: await ctx.repo.dataSetCreatedAt() };
}

/**
 * Refuses a request body that refers to an unknown category: 422 `unknown-reference` (the
 * body is well-formed, what it names does not exist), unlike the 404 of a path.
 *
 * @example
 * requireKnownCategory(input.categoryId);
 */
export function requireKnownCategory(id: number): void {
  if (!findCategory(id)) {
    throw new ApiProblem('unknown-reference', `Category ${id} does not exist.`);
  }
}
