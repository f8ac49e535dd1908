import { describe, expect, it } from 'vitest';
import bundled from '../spec/openapi.json' with { type: 'json' };
import { dereferenceDocument } from '../spec/dereference-document.js';
import { readOnlyLeniency } from './read-only-leniency.js';

const doc = dereferenceDocument(bundled);
const finding = (message: string, location = 'request.body') => ({
  location,
  severity: 'Error',
  message,
});

describe('readOnlyLeniency', () => {
  it('drops the findings of read-only fields the contract accepts and ignores, nothing else', () => {
    const lenient = readOnlyLeniency(doc);
    const reported = [
      finding("Request body must NOT have additional properties; found 'id'"),
      finding("Request body must NOT have additional properties; found 'status'"),
      finding("Request body must NOT have additional properties; found 'nickname'"),
      finding('Request body property name must NOT have fewer than 1 characters'),
      finding("Response body must NOT have additional properties; found 'id'", 'response.body'),
    ];
    expect(lenient('updateUser', reported).map((f) => f.message)).toEqual([
      "Request body must NOT have additional properties; found 'nickname'",
      'Request body property name must NOT have fewer than 1 characters',
      "Response body must NOT have additional properties; found 'id'",
    ]);
    expect(lenient('createUser', reported)).toHaveLength(5);
    expect(lenient(undefined, reported)).toHaveLength(5);
  });

  it('leaves every finding where the description does not declare the leniency', () => {
    const strict = { ...doc, 'x-apikit-validation': {} } as typeof doc;
    const reported = [finding("Request body must NOT have additional properties; found 'id'")];
    expect(readOnlyLeniency(strict)('updateUser', reported)).toEqual(reported);
  });
});
