import type { OpenApiDocument } from '../../spec/load-spec.js';
import type { OwnDataSeed } from '../domain/seed-dataset.js';
import { buildDataSet } from './build-data-set.js';
import { checkDataSet, type CheckedDataSet } from './check-data-set.js';
import { InvalidDataSetError } from './data-set-format.js';

/**
 * A data set of your own as a seed: checked against the contract now (every problem listed in
 * one InvalidDataSetError, before anything is written), built (passwords hashed) when the store
 * is seeded and again on every `/admin/reset`, each time dated then.
 *
 * @example
 * const seed = dataSetSeed(JSON.parse(text), spec, 'shop.json'); // throws InvalidDataSetError
 */
export function dataSetSeed(
  input: unknown,
  spec: OpenApiDocument,
  label = 'the data set',
): OwnDataSeed & { data: CheckedDataSet } {
  const checked = checkDataSet(input, spec, new Date());
  if (!checked.ok) throw new InvalidDataSetError(checked.problems, label);
  const { data } = checked;
  return { label, data, build: (options) => buildDataSet(data, options) };
}
