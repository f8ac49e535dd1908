import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { loadSpec } from './load-spec.js';
import { serviceDeclaration } from './service-extensions.js';

const cors = (allowMethods: unknown) =>
  serviceDeclaration({
    'x-apikit-service': { cors: { allowHeaders: [], exposeHeaders: [], allowMethods } },
  } as unknown as OpenAPIV3.Document).cors?.allowMethods;

describe('x-apikit-service.cors.allowMethods', () => {
  it("is `Allow` in the contract: a preflight lists the path's methods as Allow does", async () => {
    expect(serviceDeclaration(await loadSpec()).cors?.allowMethods).toBe('Allow');
  });

  it('reads `Allow` in any letter case or a list of methods, and nothing else', () => {
    expect(cors('allow')).toBe('Allow');
    expect(cors(['get', 'POST', 3])).toEqual(['GET', 'POST']);
    expect(cors('GET')).toBeUndefined();
    expect(cors(undefined)).toBeUndefined();
  });
});
