import { describe, expect, it } from 'vitest';
import { pipelineSteps } from './pipeline-steps.js';

describe('pipelineSteps', () => {
  it("is the contract's order of checks", () => {
    // 404 -> 405/501 -> 401 -> 403 -> 406 -> 413 -> 415 -> 400 -> 404 -> 412 -> 400 -> 409/422
    expect(pipelineSteps.map((step) => step.name)).toEqual([
      'serveOpenRoutes',
      'matchRoute',
      'answerOptions',
      'selectOperation',
      'authenticateCaller',
      'authorizeRole',
      'checkAccept',
      'checkBodySize',
      'checkMediaType',
      'parseParameters',
      'requireResource',
      'authorizeTarget',
      'judgePreconditions',
      'parseBody',
      'runOperation',
    ]);
  });
});
