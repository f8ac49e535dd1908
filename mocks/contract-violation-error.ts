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

/** The detail of the 500 problem a refused answer becomes, over MSW and over HTTP alike. */
export function violationDetail(error: ContractViolationError): string {
  return `The mock refused to send an answer the contract does not allow (${error.name}): ${error.message}`;
}
