import { Ajv, type AnySchema, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { toJsonSchema } from './openapi-schema.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** OpenAPI 3.0 Schema Object keywords that are annotations to JSON Schema validators. */
const OPENAPI_ANNOTATIONS = ['example', 'xml', 'externalDocs', 'discriminator'];

/**
 * An ajv instance that understands OpenAPI 3.0 Schema Objects: `nullable` (native in ajv),
 * boolean `exclusiveMinimum`/`exclusiveMaximum` (translated by `toJsonSchema`),
 * the OpenAPI formats (int32, int64, email, date-time, uri, ...) and the annotation keywords.
 * Every validator in apikit (spec examples, the server's request validation, the mocks' and
 * the runner's response checks) is built from this one factory so they agree on edge cases.
 *
 * @example
 * const validate = createAjv().compile(doc.components.schemas.UserDto);
 * validate({ id: 1 }); // false, validate.errors lists every violation
 */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictTypes: false, // `nullable` schemas without an explicit null type are legal OpenAPI 3.0
    strictRequired: false,
    validateFormats: true,
    ...options,
  });
  addFormats(ajv);
  ajv.addVocabulary(OPENAPI_ANNOTATIONS);
  // Every schema compiled through this instance is read with OpenAPI 3.0 semantics.
  const compile = ajv.compile.bind(ajv);
  ajv.compile = ((schema: AnySchema, meta?: boolean) =>
    compile(toJsonSchema(schema), meta)) as Ajv['compile'];
  return ajv;
}
