import { describe, expect, it } from 'vitest';
import { specTypesProblem } from './spec-types-peers.js';

describe('specTypesProblem', () => {
  it.each([
    ['7.13.0', '5.9.3'],
    ['7.13.0', '6.0.3'],
  ])('lets openapi-typescript %s run on TypeScript %s', (openapiTypescript, typescript) => {
    expect(specTypesProblem({ openapiTypescript, typescript })).toBeUndefined();
  });

  it.each([
    [
      '7.13.0',
      '7.0.2',
      /^apikit spec types needs TypeScript 5 or 6: .*JavaScript API.*\(7\.0\.2 is installed\)\. .*: npm i -D typescript@~6\.0 --legacy-peer-deps$/,
    ],
    [
      undefined,
      '7.0.2',
      /: npm i -D typescript@~6\.0 openapi-typescript@\^7\.13\.0 --legacy-peer-deps$/,
    ],
    [
      undefined,
      undefined,
      /^apikit spec types needs openapi-typescript and TypeScript 5 or 6, which are not installed: npm i -D openapi-typescript@\^7\.13\.0 typescript@\^5$/,
    ],
    [
      '7.13.0',
      undefined,
      /^apikit spec types needs TypeScript 5 or 6, which is not installed: npm i -D typescript@\^5$/,
    ],
    [
      undefined,
      '5.9.3',
      /^apikit spec types needs openapi-typescript, which is not installed: npm i -D openapi-typescript@\^7\.13\.0$/,
    ],
    [
      undefined,
      '6.0.3',
      /: npm i -D openapi-typescript@\^7\.13\.0 --legacy-peer-deps \(its peer range names TypeScript 5; it runs on 6\)$/,
    ],
  ])(
    'openapi-typescript %s with TypeScript %s: names what to install',
    (openapiTypescript, typescript, message) => {
      expect(specTypesProblem({ openapiTypescript, typescript })).toMatch(message);
    },
  );
});
