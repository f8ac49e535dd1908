import type { SpecOperation } from '../../../spec/operations.js';
import { statusProbe } from './expect-status.js';
import { validCall } from '../support/probe-support.js';
import { absentValue } from './absent-resource.js';

/** The first path parameter of an operation that has more: the parent the path goes through. */
const parentParameter = (op: SpecOperation) => {
  const params = op.parameters.filter((p) => p.in === 'path');
  return params.length > 1 ? params[0] : undefined;
};

/**
 * absent_parent: operations under a parent resource (two path parameters or more) that document
 * 404 answer 404 when the parent named by their first path parameter does not exist (the rest
 * real, from fixtures; the body valid), so that a target which checks only the resource it acts
 * on, or refuses an unknown parent as invalid input, is seen. A PUT that documents 201 is not
 * probed (a broken target could create under the absent parent).
 */
export const absentParent = statusProbe({
  name: 'absent_parent',
  description: 'An absent parent resource in the path is answered 404 where the spec documents 404',
  status: 404,
  skip(op) {
    if (!parentParameter(op)) return 'it has no parent path parameter';
    if (op.method === 'options') return 'OPTIONS describes the path, not a resource';
    if (op.method === 'put' && '201' in op.responses)
      return 'a PUT that creates could create under the absent parent';
    return undefined;
  },
  call(ctx, op, params) {
    const parent = parentParameter(op)!;
    return validCall(ctx, op, {
      ...params,
      parameters: { ...params.parameters, [parent.name]: absentValue(ctx, parent) },
    });
  },
  sent: (call) =>
    `an absent parent resource (${Object.values(call.path ?? {})
      .map(String)
      .join('/')})`,
});
