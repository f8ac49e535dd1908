import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { acceptsCredentials, needsCredentials } from './operation-security.js';

const cases: {
  security: OpenAPIV3.SecurityRequirementObject[];
  needs: boolean;
  accepts: boolean;
}[] = [
  { security: [], needs: false, accepts: false },
  { security: [{}], needs: false, accepts: false },
  { security: [{ bearerAuth: [] }], needs: true, accepts: true },
  { security: [{}, { bearerAuth: [] }], needs: false, accepts: true },
  { security: [{ apiKey: [] }, { bearerAuth: [] }], needs: true, accepts: true },
];

describe('needsCredentials and acceptsCredentials', () => {
  it.each(cases)('$security: needs $needs, accepts $accepts', ({ security, needs, accepts }) => {
    expect(needsCredentials({ security })).toBe(needs);
    expect(acceptsCredentials({ security })).toBe(accepts);
  });
});
