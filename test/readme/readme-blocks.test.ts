import { describe, expect, it } from 'vitest';
import { documentedStatuses, onPort, readmeShellBlocks } from './readme-blocks.js';

describe('readmeShellBlocks', () => {
  it('finds shell blocks with their directive and heading, and passes other languages by', () => {
    const blocks = readmeShellBlocks(
      [
        '## Start',
        '```sh',
        'npm start',
        '```',
        '```ts',
        "import 'x';",
        '```',
        '<!-- readme-test: skip needs a GPU -->',
        '',
        '```bash',
        'train',
        '```',
        '<!-- readme-test: serves /healthz -->',
        '```sh',
        'npx apikit mock --port 3000',
        '```',
      ].join('\n'),
    );
    expect(blocks.map((b) => [b.line, b.heading, b.code, b.mode])).toEqual([
      [2, 'Start', 'npm start', { kind: 'fresh-server' }],
      [10, 'Start', 'train', { kind: 'skip', reason: 'needs a GPU' }],
      [14, 'Start', 'npx apikit mock --port 3000', { kind: 'serves', path: '/healthz' }],
    ]);
  });

  it('refuses a skip without a reason and an unknown directive', () => {
    expect(() => readmeShellBlocks('<!-- readme-test: skip -->\n```sh\nx\n```')).toThrow(/say why/);
    expect(() => readmeShellBlocks('<!-- readme-test: later -->\n```sh\nx\n```')).toThrow(
      /unknown readme-test directive/,
    );
  });
});

describe('onPort and documentedStatuses', () => {
  it('moves the default port and reads the documented status lines', () => {
    const code =
      'apikit serve --port 3000 &\ncurl -si http://localhost:3000/x\n# HTTP/1.1 201 Created\n# HTTP/2 409';
    expect(onPort(code, 4321)).toBe(
      'apikit serve --port 4321 &\ncurl -si http://127.0.0.1:4321/x\n# HTTP/1.1 201 Created\n# HTTP/2 409',
    );
    expect(documentedStatuses(code)).toEqual([201, 409]);
  });
});
