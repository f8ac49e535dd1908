import type { Check } from '../check.js';
import { boundedErrors } from './bounded-errors.js';
import { charsetParameter } from './charset.js';
import { checkOrder } from './check-order.js';
import { headRequiresAuth } from './head-auth.js';
import { headerLimit } from './header-limit.js';
import { problemTypeTitle } from './problem-titles.js';
import { strictRouting, unrecognizedMethod } from './routing.js';
import { validationErrors } from './validation-errors.js';
import { versionRouting } from './versions.js';

/**
 * Checks of HTTP rules beyond the documented operations: HEAD's credentials (generic), and the
 * conventions a spec declares in `x-apikit-http` (routing, versions, unrecognized methods,
 * charsets, every violation named, the bound of a 400's errors, one title per problem type, the
 * order of checks, the 431 of an oversized header block), skipped where it declares none.
 */
export const httpConventionChecks: Check[] = [
  problemTypeTitle,
  headRequiresAuth,
  strictRouting,
  unrecognizedMethod,
  versionRouting,
  charsetParameter,
  validationErrors,
  boundedErrors,
  checkOrder,
  headerLimit,
];
