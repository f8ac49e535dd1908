import { afterEach, beforeEach, describe } from 'vitest';
import type { Dataset } from '../../../core/domain/dataset.js';
import type { Repository } from '../../../core/repository/repository.js';
import { testDataset } from '../domain/test-dataset.js';
import { describeClaims } from './repository-suite-claims.js';
import { describeIds } from './repository-suite-ids.js';
import { describeUserLists } from './repository-suite-lists.js';
import { describeReads } from './repository-suite-reads.js';
import { describeTokens } from './repository-suite-tokens.js';
import { describeTransactions } from './repository-suite-transactions.js';

/** Opens a repository holding `seed` (a copy: the test may change it), and how to close it. */
export type OpenRepository = (
  seed: Dataset,
) => Promise<{ repository: Repository; close: () => Promise<void> }>;

/** The repository of the running test, opened fresh over testDataset() before each one. */
export interface RepositoryUnderTest {
  readonly repository: Repository;
}

/**
 * The one test suite of the repository port (core/repository/repository.ts): every
 * implementation (the in-memory one, PostgreSQL) must pass it unchanged, so that the domain
 * behaves the same over each. Each test starts from testDataset() (test/support/domain).
 *
 * @example
 * describeRepository('memory', async (seed) => {
 *   const repository = createDatasetRepository(new MemoryStore(seed));
 *   return { repository, close: () => repository.close() };
 * });
 */
export function describeRepository(name: string, open: OpenRepository): void {
  describe(`repository port: ${name}`, () => {
    let opened: Awaited<ReturnType<OpenRepository>> | undefined;
    beforeEach(async () => {
      opened = await open(testDataset());
    });
    afterEach(async () => {
      await opened?.close();
      opened = undefined;
    });
    const subject: RepositoryUnderTest = {
      get repository() {
        if (opened === undefined) throw new Error('no repository is open');
        return opened.repository;
      },
    };
    describeReads(subject);
    describeUserLists(subject);
    describeTransactions(subject);
    describeIds(subject);
    describeTokens(subject);
    describeClaims(subject);
  });
}
