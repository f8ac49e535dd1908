import { faultTableSuite } from './fault-table-suite.js';

// The fault table is split over four files, so that they run in parallel (fault-table-suite.ts).
faultTableSuite(2, 4);
