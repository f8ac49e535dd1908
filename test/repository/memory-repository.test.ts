import { createDatasetRepository } from '../../core/repository/dataset-repository.js';
import { MemoryStore } from '../support/domain/memory-store.js';
import { describeRepository } from '../support/repository/repository-suite.js';

// The in-memory repository (the JSON file store's and the mocks') against the port's suite.
describeRepository('in memory', async (seed) => {
  const repository = createDatasetRepository(new MemoryStore(seed));
  return { repository, close: () => repository.close() };
});
