import { describe, expect, it } from 'vitest';
import { getCategory, listCategories, requireKnownCategory } from './categories.js';
import { expectProblem } from '../../test/support/domain/expect-problem.js';
import { createTestContext } from '../../test/support/domain/test-context.js';
import { SEED_TIME, testDataset } from '../../test/support/domain/test-dataset.js';

describe('categories', () => {
  it('lists the fixed catalog by id, dated with the data set', async () => {
    const { ctx } = createTestContext(testDataset());
    expect(await listCategories(ctx)).toEqual({
      body: [
        { id: 1, name: 'Books' },
        { id: 2, name: 'Electronics' },
        { id: 3, name: 'Clothing' },
        { id: 4, name: 'Home & Garden' },
        { id: 5, name: 'Toys' },
      ],
      lastModified: SEED_TIME,
    });
  });

  it('gets one category', async () => {
    const { ctx } = createTestContext(testDataset());
    expect(await getCategory(ctx, 4)).toEqual({
      body: { id: 4, name: 'Home & Garden' },
      lastModified: SEED_TIME,
    });
  });

  it.each([0, 6, 99])('category %i is 404', async (id) => {
    const tc = createTestContext(testDataset());
    const problem = await expectProblem(tc, () => getCategory(tc.ctx, id), 'not-found');
    expect(problem.detail).toBe(`Category ${id} does not exist.`);
  });

  it('an unknown category in a body is 422 unknown-reference', async () => {
    expect(() => requireKnownCategory(99)).toThrow('Category 99 does not exist.');
    expect(() => requireKnownCategory(5)).not.toThrow();
  });

  it('hands out copies: a caller cannot change the catalog', async () => {
    const { ctx } = createTestContext(testDataset());
    const first = (await listCategories(ctx)).body[0];
    if (first) first.name = 'Changed';
    expect((await getCategory(ctx, 1)).body.name).toBe('Books');
  });
});
