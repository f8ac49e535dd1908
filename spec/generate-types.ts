import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { specPath } from './spec-path.js';

const HEADER = `/**
 * Generated from spec/openapi.yaml by \`npm run gen:types\` (openapi-typescript). Do not edit:
 * change the spec and regenerate. CI fails when this file is stale.
 */

`;

/**
 * TypeScript declarations (`paths`, `components`, `operations`) for an OpenAPI description,
 * as written to `spec/openapi-types.ts`.
 *
 * @example
 * await writeFile('spec/openapi-types.ts', await generateTypes());
 */
export async function generateTypes(file: string = specPath): Promise<string> {
  const ast = await openapiTS(pathToFileURL(file), { alphabetize: false });
  return HEADER + astToString(ast);
}
