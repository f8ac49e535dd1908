import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { specPath } from './spec-path.js';
import { validateSpecFile } from './validate-spec.js';

const dir = mkdtempSync(join(tmpdir(), 'apikit-spec-'));
let n = 0;

/** A copy of the contract with one change applied, written to a temp file. */
function brokenCopy(change: (doc: Record<string, any>) => void): string {
  const doc = parse(readFileSync(specPath, 'utf8')) as Record<string, any>;
  change(doc);
  const file = join(dir, `broken-${++n}.yaml`);
  writeFileSync(file, stringify(doc));
  return file;
}

describe('validateSpecFile', () => {
  it('finds no problem in the committed contract', async () => {
    const report = await validateSpecFile(specPath);
    expect(report.problems).toEqual([]);
    expect(report.valid).toBe(true);
  });

  it('reports a $ref to a schema that is missing, naming it', async () => {
    const file = brokenCopy((doc) => delete doc.components.schemas.UserDto);
    const report = await validateSpecFile(file);
    expect(report.valid).toBe(false);
    expect(report.problems.some((p) => p.rule === 'reference' && /UserDto/.test(p.message))).toBe(
      true,
    );
  });

  it('reports every bad $ref, not just the first', async () => {
    const file = brokenCopy((doc) => {
      doc.components.schemas.Extra1 = { $ref: '#/components/schemas/Nope1' };
      doc.components.schemas.Extra2 = { $ref: '#/components/schemas/Nope2' };
    });
    const messages = (await validateSpecFile(file)).problems.map((p) => p.message).join('\n');
    expect(messages).toMatch(/Nope1/);
    expect(messages).toMatch(/Nope2/);
  });

  it('reports structural violations of the OpenAPI 3.0 schema with their location', async () => {
    const file = brokenCopy((doc) => {
      delete doc.info.title;
      doc.paths['/users'].get.responses['200'].bogus = true;
    });
    const problems = (await validateSpecFile(file)).problems;
    expect(problems).toContainEqual(
      expect.objectContaining({
        rule: 'structure',
        location: '/info',
        message: 'missing required property "title"',
      }),
    );
    expect(problems.some((p) => p.rule === 'structure' && /bogus/.test(p.message))).toBe(true);
  });

  it('reports rules the schema cannot express', async () => {
    const file = brokenCopy((doc) => {
      doc.paths['/roles'].get.operationId = 'getUser';
      doc.paths['/users/{id}/things/{thingId}'] = {
        get: {
          operationId: 'listThings',
          responses: { '200': { description: 'ok' } },
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              schema: { type: 'integer' },
            },
          ],
        },
      };
      doc.components.schemas.CreateUserRequest.required.push('nickname');
      doc.components.schemas.CreateUserRequest.example = { name: '', email: 'x' };
    });
    const rules = new Set((await validateSpecFile(file)).problems.map((p) => `${p.rule}`));
    expect([...rules].sort()).toEqual([
      'example',
      'operation-id',
      'path-parameter',
      'required-property',
    ]);
  });

  it('reports a YAML syntax error with its line', async () => {
    const file = join(dir, 'syntax.yaml');
    writeFileSync(file, 'openapi: 3.0.3\ninfo: [unclosed\n');
    const report = await validateSpecFile(file);
    expect(report.valid).toBe(false);
    expect(report.problems[0]).toMatchObject({ rule: 'syntax' });
    expect(report.problems[0]!.location).toMatch(/^\d+:\d+$/);
  });
});

describe('validateSpecFile and allOf', () => {
  it('accepts a required property defined by a sibling allOf part', async () => {
    const file = brokenCopy((doc) => {
      doc.components.schemas.Composed = {
        allOf: [
          { type: 'object', properties: { name: { type: 'string' } } },
          { type: 'object', required: ['name', 'tag'], properties: { tag: { type: 'string' } } },
        ],
      };
    });
    const problems = (await validateSpecFile(file)).problems.filter(
      (p) => p.rule === 'required-property',
    );
    expect(problems).toEqual([]);
  });
});
