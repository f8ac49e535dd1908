import type { Ajv } from 'ajv';
import type { SpecOperation } from '../../spec/operations.js';
import { BodyParser } from './body-parser.js';
import { ParameterParser } from './parameter-parser.js';

/** An operation's compiled validators: its parameters and its body. */
export interface OperationParsers {
  parameters: ParameterParser;
  body: BodyParser;
}

/**
 * The validators of each operation, compiled on its first request. ajv itself is imported on
 * the first request that validates anything: neither is on the way to a listening server. A
 * compiled operation is answered synchronously, so the hot path awaits nothing here.
 *
 * @example
 * const parsersOf = parsersPerOperation();
 * const parsers = parsersOf(op); // a Promise only the first time
 */
export function parsersPerOperation(): (
  op: SpecOperation,
) => OperationParsers | Promise<OperationParsers> {
  const compiled = new Map<string, OperationParsers>();
  let ajv: Ajv | undefined;
  let loadingAjv: Promise<Ajv> | undefined;
  const loadAjv = (): Promise<Ajv> =>
    (loadingAjv ??= import('../../spec/create-ajv.js').then(({ createAjv }) => {
      ajv = createAjv();
      return ajv;
    }));
  const compile = async (op: SpecOperation): Promise<OperationParsers> => {
    const validator = ajv ?? (await loadAjv());
    let parsers = compiled.get(op.operationId);
    if (!parsers) {
      parsers = {
        parameters: new ParameterParser(op, validator),
        body: new BodyParser(op, validator),
      };
      compiled.set(op.operationId, parsers);
    }
    return parsers;
  };
  return (op) => compiled.get(op.operationId) ?? compile(op);
}
