import { describe, expect, it } from 'vitest';
import { INTERACTION_FORMAT, type InteractionFile } from './interaction-file.js';
import { InteractionFileError, parseInteractionFile } from './parse-interaction-file.js';

const file: InteractionFile = {
  format: INTERACTION_FORMAT,
  consumer: 'app',
  contract: { title: 'User/Order Service', version: '1.0.0' },
  interactions: [
    {
      key: 'listUsers 200 abc123',
      operationId: 'listUsers',
      request: {
        method: 'GET',
        path: '/api/v1/users',
        query: [['size', '2']],
        headers: { authorization: 'Bearer <access-token>' },
      },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: [] },
      tests: [{ file: 'src/a.test.ts', name: 'a > lists' }],
      canned: 'override',
    },
  ],
};

describe('parseInteractionFile', () => {
  it('takes a valid file, from its text or its parsed JSON', () => {
    expect(parseInteractionFile(JSON.stringify(file))).toEqual(file);
    expect(parseInteractionFile(JSON.parse(JSON.stringify(file)))).toEqual(file);
  });

  it('refuses a text that is not a recording, naming why and where', () => {
    expect(() => parseInteractionFile('{', 'a.json')).toThrow(
      /^a\.json is not a recording of interactions: not JSON/,
    );
    expect(() => parseInteractionFile('[]')).toThrow(/not a JSON object/);
    expect(() => parseInteractionFile('{"format":"pact"}')).toThrow(
      /format "pact", expected "apikit-interactions\/1": not a recording of the apikit mocks/,
    );
    expect(() => parseInteractionFile({ format: 'apikit-interactions/2' })).toThrow(
      /a version this apikit does not read/,
    );
    expect(() => parseInteractionFile({ consumer: 'x' })).toThrow(/no "format"/);
    expect(() => parseInteractionFile(`{"format":"${INTERACTION_FORMAT}"}`)).toThrow(
      /no "interactions" list/,
    );
    expect(() => parseInteractionFile([])).toThrow(InteractionFileError);
  });

  it('names every broken field of every interaction by index and key', () => {
    const broken = {
      ...file,
      interactions: [
        {
          ...file.interactions[0],
          tests: 'x',
          canned: 'maybe',
          response: { status: '200', headers: {} },
        },
      ],
    };
    expect(() => parseInteractionFile(broken)).toThrow(
      /interactions\[0\] \(listUsers 200 abc123\): response.status is not a number; .*"tests" is not.*"canned" is neither/,
    );
  });
});
