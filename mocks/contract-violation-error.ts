import type { ResponseViolation } from '../spec/response-validator.js';

/** An answer the spec does not allow: the mocks refuse to send it, so no test can pass on it. */
export class ContractViolationError extends Error {
  override name = 'ContractViolationError';
  constructor(
    readonly operationId: string,
    readonly status: number,
    readonly violations: ResponseViolation[],
  ) {
    super(
      `${operationId} answered ${status}, which the contract does not allow: ${violations.map((v) => v.message).join('; ')}`,
    );
  }
}
