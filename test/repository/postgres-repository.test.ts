import { openPostgresRepository } from '../../reference-server/store/postgres/open-postgres-repository.js';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';
import { describeRepository } from '../support/repository/repository-suite.js';

// The PostgreSQL repository against the port's suite: a throwaway cluster for this file, a
// database emptied (then seeded again) for each test.
const postgres = usePostgresCluster();

describeRepository('PostgreSQL', async (seed) => {
  const { repository } = await openPostgresRepository({
    connectionString: await postgres.wipedDatabase(),
    seed: async () => seed,
    poolSize: 4,
  });
  return { repository, close: () => repository.close() };
});
