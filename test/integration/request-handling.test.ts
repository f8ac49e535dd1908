import { problemPrecedenceSuite } from './problem-precedence-suite.js';
import { routingSuite } from './routing-suite.js';
import { useServer } from './suite-context.js';

// One server for both suites: how a request is routed, checked and answered, whatever it asks.
const ctx = useServer();
problemPrecedenceSuite(ctx);
routingSuite(ctx);
