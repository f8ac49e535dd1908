import { describe, expect, it } from 'vitest';
import {
  INTERACTION_FORMAT,
  type InteractionFile,
  type RecordedInteraction,
} from './interaction-file.js';
import { mergeInteractionFiles, mergeInteractionLists } from './merge-interactions.js';
import { parseInteractionFile } from './parse-interaction-file.js';
import { serializeInteractionFile } from './serialize-interactions.js';

function interaction(key: string, id: number, ...tests: [string, string?][]): RecordedInteraction {
  return {
    key,
    operationId: key.split(' ')[0]!,
    request: { method: 'GET', path: `/api/v1/users/${id}`, query: [], headers: {} },
    response: { status: 200, headers: {}, body: { id } },
    tests: tests.map(([file, name]) => (name === undefined ? { file } : { file, name })),
  };
}

function file(...interactions: RecordedInteraction[]): InteractionFile {
  return {
    format: INTERACTION_FORMAT,
    consumer: 'app',
    contract: { title: 'API', version: '1' },
    interactions,
  };
}

describe('merging recordings', () => {
  it('takes the union by key, the tests of a shared key together, sorted and each once', () => {
    const merged = mergeInteractionFiles(
      file(
        interaction('getUser 200 aaaaaa', 1, ['b.test.ts', 'two']),
        interaction('listUsers 200 bbbbbb', 0, ['a.test.ts']),
      ),
      file(
        interaction('getUser 200 aaaaaa', 2, ['a.test.ts', 'one'], ['b.test.ts', 'two']),
        interaction('createUser 201 cccccc', 3),
      ),
    );
    expect(merged.interactions.map((i) => i.key)).toEqual([
      'createUser 201 cccccc',
      'getUser 200 aaaaaa',
      'listUsers 200 bbbbbb',
    ]);
    expect(merged.interactions[1]!.tests).toEqual([
      { file: 'a.test.ts', name: 'one' },
      { file: 'b.test.ts', name: 'two' },
    ]);
  });

  it('keeps one example whatever the order (the one that serializes first)', () => {
    const a = interaction('getUser 200 aaaaaa', 1, ['x.test.ts']);
    const b = interaction('getUser 200 aaaaaa', 2, ['y.test.ts']);
    const ab = mergeInteractionLists([a], [b]);
    const ba = mergeInteractionLists([b], [a]);
    expect(ab).toEqual(ba);
    expect(ab[0]!.request.path).toBe('/api/v1/users/1');
  });

  it('is associative and commutative: any order of workers gives the same bytes', () => {
    const parts = [
      file(interaction('a 200 000001', 5, ['t1'])),
      file(interaction('a 200 000001', 4, ['t2']), interaction('b 200 000002', 1, ['t2'])),
      file(interaction('b 200 000002', 2, ['t3']), interaction('c 404 000003', 1)),
    ];
    const orders = [
      [0, 1, 2],
      [2, 1, 0],
      [1, 0, 2],
    ];
    const texts = orders.map((order) =>
      serializeInteractionFile(order.map((i) => parts[i]!).reduce(mergeInteractionFiles)),
    );
    expect(new Set(texts).size).toBe(1);
  });
});

describe('the file’s text', () => {
  it('is stable: format first, sorted keys, 2 spaces, a trailing newline, round-trips', () => {
    const text = serializeInteractionFile(
      file(interaction('b 200 000002', 1), interaction('a 200 000001', 2)),
    );
    expect(
      text.startsWith(
        `{\n  "format": "${INTERACTION_FORMAT}",\n  "consumer": "app",\n  "contract"`,
      ),
    ).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toMatch(/\n {6}"key": "a 200 000001"/);
    expect(text.indexOf('"a 200 000001"')).toBeLessThan(text.indexOf('"b 200 000002"'));
    const parsed = parseInteractionFile(text);
    expect(serializeInteractionFile(parsed)).toBe(text);
    expect(Object.keys(parsed.interactions[0]!)).toEqual([
      'key',
      'operationId',
      'request',
      'response',
      'tests',
    ]);
  });
});
