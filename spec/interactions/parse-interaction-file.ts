import { INTERACTION_FORMAT, type InteractionFile } from './interaction-file.js';

/** A text or value that is not an interaction file of a format this apikit reads. */
export class InteractionFileError extends Error {
  override name = 'InteractionFileError';
}

/**
 * A recording read back and checked (decision 0112, 0113), from its text or from its parsed
 * JSON: the format and version first (a file of another version is named with what this
 * apikit reads), then every interaction's fields, each problem named by its index and key.
 * The one parser of the format: the mocks use it to merge into a file already written,
 * `apikit conform --interactions FILE` before its first request.
 *
 * @example
 * const file = parseInteractionFile(await readFile('interactions.json', 'utf8'), 'interactions.json');
 */
export function parseInteractionFile(
  input: unknown,
  source = 'the interaction file',
): InteractionFile {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input) as unknown;
    } catch (error) {
      throw new InteractionFileError(
        `${source} is not a recording of interactions: not JSON (${(error as Error).message})`,
      );
    }
  }
  if (!isObject(value))
    throw new InteractionFileError(
      `${source} is not a recording of interactions: not a JSON object`,
    );
  const format = value['format'];
  if (format !== INTERACTION_FORMAT) {
    const found = typeof format === 'string' ? `format "${format}"` : 'no "format"';
    const hint =
      typeof format === 'string' && format.startsWith('apikit-interactions/')
        ? ': a version this apikit does not read (record again, or use the apikit that recorded it)'
        : ': not a recording of the apikit mocks (APIKIT_RECORD=FILE or createMockApi({ record }))';
    throw new InteractionFileError(
      `${source} has ${found}, expected "${INTERACTION_FORMAT}"${hint}`,
    );
  }
  const problems: string[] = [];
  if (typeof value['consumer'] !== 'string') problems.push('"consumer" is not a string');
  const contract = value['contract'];
  if (
    !isObject(contract) ||
    typeof contract['title'] !== 'string' ||
    typeof contract['version'] !== 'string'
  )
    problems.push('"contract" is not { title, version }');
  const interactions = value['interactions'];
  if (!Array.isArray(interactions)) problems.push('no "interactions" list');
  else interactions.forEach((x, i) => problems.push(...interactionProblems(x, i)));
  if (problems.length > 0)
    throw new InteractionFileError(
      `${source} is not a valid ${INTERACTION_FORMAT} file: ${problems.slice(0, 10).join('; ')}${
        problems.length > 10 ? `; and ${problems.length - 10} more` : ''
      }`,
    );
  return value as unknown as InteractionFile;
}

function interactionProblems(x: unknown, index: number): string[] {
  if (!isObject(x)) return [`interactions[${index}] is not an object`];
  const at = `interactions[${index}]${typeof x['key'] === 'string' ? ` (${x['key']})` : ''}`;
  const problems: string[] = [];
  if (typeof x['key'] !== 'string') problems.push(`${at}: "key" is not a string`);
  if (typeof x['operationId'] !== 'string') problems.push(`${at}: "operationId" is not a string`);
  const request = x['request'];
  if (!isObject(request)) problems.push(`${at}: "request" is not an object`);
  else {
    if (typeof request['method'] !== 'string' || typeof request['path'] !== 'string')
      problems.push(`${at}: the request has no method or path`);
    if (!isPairs(request['query'])) problems.push(`${at}: request.query is not [name, value][]`);
    if (!isStringMap(request['headers'])) problems.push(`${at}: request.headers is not a map`);
  }
  const response = x['response'];
  if (!isObject(response)) problems.push(`${at}: "response" is not an object`);
  else {
    if (!Number.isInteger(response['status']))
      problems.push(`${at}: response.status is not a number`);
    if (!isStringMap(response['headers'])) problems.push(`${at}: response.headers is not a map`);
  }
  const tests = x['tests'];
  if (!Array.isArray(tests) || !tests.every((t) => isObject(t) && typeof t['file'] === 'string'))
    problems.push(`${at}: "tests" is not [{ file, name? }]`);
  const canned = x['canned'];
  if (canned !== undefined && canned !== 'override' && canned !== 'prefer')
    problems.push(`${at}: "canned" is neither "override" nor "prefer"`);
  return problems;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringMap(value: unknown): boolean {
  return isObject(value) && Object.values(value).every((v) => typeof v === 'string');
}

function isPairs(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every((p) => Array.isArray(p) && p.length === 2 && p.every((s) => typeof s === 'string'))
  );
}
