import { authFlowsSuite } from './auth-flows-suite.js';
import { idempotencySuite } from './idempotency-suite.js';
import { useServer } from './suite-context.js';

// One server for both suites: who is calling (tokens, refresh, revocation), and retrying safely.
const ctx = useServer();
authFlowsSuite(ctx);
idempotencySuite(ctx);
