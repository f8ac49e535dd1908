import { conditionalRequestsSuite } from './conditional-requests-suite.js';
import { listingSuite } from './listing-suite.js';
import { useServer } from './suite-context.js';
import { writeSemanticsSuite } from './write-semantics-suite.js';

// One server for the three suites: what reads and writes of resources and collections mean.
const ctx = useServer();
conditionalRequestsSuite(ctx);
writeSemanticsSuite(ctx);
listingSuite(ctx);
