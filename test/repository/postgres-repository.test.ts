import { openPostgresRepository } from '../../reference-server/store/postgres/open-postgres-repository.js';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';
import { describeRepository } from '../support/repository/repository-suite.js';

// The PostgreSQL repository against the port's suite: a throwaway cluster for this file, a
// fresh database (migrated, then seeded) for each test.
const postgres = usePostgresCluster();

describeRepository('PostgreSQL', async (seed) => {
  const { repository } = await openPostgresRepository({
    connectionString: await postgres.freshDatabase(),
    seed: async () => seed,
    poolSize: 4,
  });
  return { repository, close: () => repository.close() };
});
