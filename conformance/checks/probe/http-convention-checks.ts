import type { Check } from '../check.js';
import { charsetParameter } from './charset.js';
import { checkOrder } from './check-order.js';
import { headRequiresAuth } from './head-auth.js';
import { problemTypeTitle } from './problem-titles.js';
import { strictRouting, unrecognizedMethod } from './routing.js';
import { validationErrors } from './validation-errors.js';
import { versionRouting } from './versions.js';

/**
 * Checks of HTTP rules beyond the documented operations: HEAD's credentials (generic), and the
 * conventions a spec declares in `x-apikit-http` (routing, versions, unrecognized methods,
 * charsets, every violation named, one title per problem type, the order of checks), skipped where it declares none.
 */
export const httpConventionChecks: Check[] = [
  problemTypeTitle,
  headRequiresAuth,
  strictRouting,
  unrecognizedMethod,
  versionRouting,
  charsetParameter,
  validationErrors,
  checkOrder,
];
