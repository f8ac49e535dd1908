import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageRoot, specPath } from '../../spec/spec-path.js';
import { runCli } from '../../test/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'apikit-cli-'));

describe('apikit spec', () => {
  it('validate exits 0 on the committed contract', async () => {
    const result = await runCli(['spec', 'validate']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /valid OpenAPI 3\.0\.3 description \(\d+ operations, \d+ examples checked\)/,
    );
  });

  it('validate exits 1 on a broken copy and names each problem', async () => {
    const text = readFileSync(specPath, 'utf8')
      .replace(/^    UserDto:$/m, '    UserDtoGone:')
      .replace("$ref: '#/components/schemas/Category'", "$ref: '#/components/schemas/Categry'");
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, text);
    const result = await runCli(['spec', 'validate', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/problem\(s\)/);
    expect(result.stdout).toMatch(/\[reference\].*\n.*UserDto/);
    expect(result.stdout).toMatch(/Categry/);
  });

  it('validate --json prints the report', async () => {
    const result = await runCli(['spec', 'validate', '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: true, problems: [] });
  });

  it('validate exits 2 when the file cannot be read', async () => {
    const result = await runCli(['spec', 'validate', join(dir, 'nope.yaml')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot read .*nope\.yaml: ENOENT/);
  });

  it('bundle prints the description as JSON or YAML', async () => {
    const json = await runCli(['spec', 'bundle']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe('1.0.0');
    const yaml = await runCli(['spec', 'bundle', '--format', 'yaml', '--dereference']);
    expect(yaml.code).toBe(0);
    const deref = parse(yaml.stdout);
    expect(JSON.stringify(deref)).not.toContain('$ref');
    expect(Object.keys(deref.paths)).toEqual(Object.keys(doc.paths));
  });

  it('bundle into a reader that hangs up early exits 0 without a stack trace', async () => {
    const child = spawn(
      process.execPath,
      [
        join(packageRoot, 'bin', 'apikit.js'),
        'spec',
        'bundle',
        '--dereference',
        '--format',
        'yaml',
      ],
      {
        cwd: packageRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 20_000,
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    // Like `| head -1`: the first chunk, then the pipe closed.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('types --check agrees that the committed types are current', async () => {
    const result = await runCli(['spec', 'types', '--output', 'spec/openapi-types.ts', '--check']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('types --check calls a missing output file missing, not stale', async () => {
    const out = join(dir, 'never-written.ts');
    const result = await runCli(['spec', 'types', '--output', out, '--check']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${out} is missing: run \`apikit spec types -o ${out}\``);
    expect(existsSync(out)).toBe(false);
  });

  it('types of a file names that file and the command that regenerates it', async () => {
    const file = join(dir, 'copy.yaml');
    writeFileSync(file, readFileSync(specPath, 'utf8'));
    const out = join(dir, 'copy-types.ts');
    const result = await runCli(['spec', 'types', file, '-o', out]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(`Generated from ${file} by \`apikit spec types ${file} -o ${out}\``);
    expect(text).not.toContain('npm run gen:types');
    // The same declarations as the committed types, under another header.
    const body = (t: string) => t.slice(t.indexOf('*/'));
    expect(body(text)).toBe(body(readFileSync(join(packageRoot, 'spec/openapi-types.ts'), 'utf8')));
    const check = await runCli(['spec', 'types', file, '-o', out, '--check']);
    expect(check.code).toBe(0);
  });

  it('types takes an http URL and names it in the header', async () => {
    const yaml = readFileSync(specPath, 'utf8');
    const server = createServer((req, res) => {
      if (req.url === '/openapi.yaml') res.setHeader('Content-Type', 'application/yaml').end(yaml);
      else res.writeHead(404).end('not here');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const result = await runCli(['spec', 'types', `${base}/openapi.yaml`]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        `Generated from ${base}/openapi.yaml by \`apikit spec types ${base}/openapi.yaml\``,
      );
      expect(result.stdout).toContain('listUsers: {');
      const missing = await runCli(['spec', 'types', `${base}/gone.yaml`]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/cannot read http:\/\/127\.0\.0\.1:\d+\/gone\.yaml: .*404/);
      // Nobody listens there any more: the reason, not only "fetch failed".
      server.close();
      const refused = await runCli(['spec', 'types', `${base}/openapi.yaml`]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/cannot read .*: fetch failed \(ECONNREFUSED\)/);
    } finally {
      server.close();
    }
  });

  it('usage errors exit 2 with a message', async () => {
    const result = await runCli(['spec', 'bundle', '--format', 'xml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Invalid values/);
  });
});
