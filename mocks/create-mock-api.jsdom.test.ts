// @vitest-environment jsdom
import { describeMocksIn } from '../test/support/mocks/environment-suite.js';

// The same suite in each environment an app's tests run in (decision 0044).
describeMocksIn('jsdom');
