import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { specPath } from '../../spec/spec-path.js';
import { CliError } from '../cli-error.js';
import { requireSpecTypesPeers } from './spec-types-peers.js';

interface FileArgs {
  file?: string;
}

const validate: CommandModule<object, FileArgs & { json: boolean }> = {
  command: 'validate [file]',
  describe: 'Validate an OpenAPI 3.0 description and list every problem (exit 0 valid, 1 invalid)',
  builder: (y) =>
    y
      .positional('file', {
        type: 'string',
        describe: 'description to check (default: the bundled contract)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the report as JSON' }),
  handler: async (args) => {
    const file = resolve(args.file ?? specPath);
    // Loaded on use: swagger-parser, ajv and openapi-typescript are heavy, and most runs of
    // the CLI (serve, conform, mock) never need them.
    const [{ validateSpecFile }, { loadSpec }, { listOperations }, { collectExamples }] =
      await Promise.all([
        import('../../spec/validate-spec.js'),
        import('../../spec/load-spec.js'),
        import('../../spec/operations.js'),
        import('../../spec/spec-examples.js'),
      ]);
    const report = await validateSpecFile(file).catch((error: NodeJS.ErrnoException) => {
      throw new CliError(`cannot read ${file}: ${error.code ?? error.message}`);
    });
    if (args.json) {
      console.log(JSON.stringify(report, null, 2));
    } else if (report.valid) {
      const doc = await loadSpec(file);
      console.log(
        `✓ ${file}: valid OpenAPI ${doc.openapi} description` +
          ` (${listOperations(doc).length} operations, ${collectExamples(doc).length} examples checked)`,
      );
    } else {
      console.log(`✗ ${file}: ${report.problems.length} problem(s)`);
      for (const p of report.problems)
        console.log(`  [${p.rule}] ${p.location}\n      ${p.message}`);
    }
    process.exitCode = report.valid ? 0 : 1;
  },
};

const bundle: CommandModule<
  object,
  FileArgs & { format: string; dereference: boolean; output?: string }
> = {
  command: 'bundle [file]',
  describe: 'Print the description as one document (internal $refs kept unless --dereference)',
  builder: (y) =>
    y
      .positional('file', {
        type: 'string',
        describe: 'description to bundle (default: the bundled contract)',
      })
      .option('format', { choices: ['json', 'yaml'], default: 'json', describe: 'output format' })
      .option('dereference', { type: 'boolean', default: false, describe: 'inline every $ref' })
      .option('output', {
        alias: 'o',
        type: 'string',
        describe: 'write to this file instead of stdout',
      }),
  handler: async (args) => {
    const file = resolve(args.file ?? specPath);
    // yaml is CommonJS: only its default export survives the CLI bundle's dynamic import.
    const [{ bundleSpec, loadSpec }, { default: yaml }] = await Promise.all([
      import('../../spec/load-spec.js'),
      import('yaml'),
    ]);
    const doc = args.dereference ? await loadSpec(file) : await bundleSpec(file);
    const text =
      args.format === 'yaml'
        ? yaml.stringify(doc, { aliasDuplicateObjects: false })
        : JSON.stringify(doc, null, 2) + '\n';
    if (args.output) await writeFile(args.output, text);
    else process.stdout.write(text);
  },
};

const types: CommandModule<object, FileArgs & { output?: string; check: boolean }> = {
  command: 'types [file]',
  describe: 'Generate TypeScript types from the description (openapi-typescript)',
  builder: (y) =>
    y
      .positional('file', {
        type: 'string',
        describe: 'description: a file or an http(s) URL (default: the bundled contract)',
      })
      .option('output', {
        alias: 'o',
        type: 'string',
        describe: 'write to this file instead of stdout',
      })
      .option('check', {
        type: 'boolean',
        default: false,
        describe: 'exit 1 when --output is missing or differs from what would be generated',
      }),
  handler: async (args) => {
    if (args.check && !args.output) throw new CliError('--check needs --output');
    requireSpecTypesPeers();
    const { generateTypes, typesProvenance, typesSource } =
      await import('../../spec/generate-types.js');
    let source: string | URL;
    try {
      source = typesSource(args.file);
    } catch {
      throw new CliError(`not a URL: ${args.file}`);
    }
    const provenance = typesProvenance(source, args.output);
    const text = await generateTypes(source, provenance).catch((error: unknown) => {
      throw new CliError(`cannot read ${provenance.source}: ${readError(error)}`);
    });
    if (args.check) {
      const output = args.output!;
      const current = await readFile(output, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw new CliError(`cannot read ${output}: ${error.code ?? error.message}`);
      });
      if (current === undefined) {
        console.error(`✗ ${output} is missing: run \`${provenance.command}\``);
        process.exitCode = 1;
      } else if (current !== text) {
        console.error(`✗ ${output} is stale: run \`${provenance.command}\``);
        process.exitCode = 1;
      } else console.log(`✓ ${output} is up to date`);
    } else if (args.output) await writeFile(args.output, text);
    else process.stdout.write(text);
  },
};

/** Why a description could not be read, in one line: ENOENT, a refused connection, a 404. */
function readError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const message = error.message.split('\n')[0] ?? '';
  // fetch's "fetch failed" keeps the reason (ECONNREFUSED, ENOTFOUND) in its cause chain.
  // (redocly's ResolveError keeps it as `originalError`); else the innermost message says it.
  let code: string | undefined;
  let inner = message;
  for (
    let e: unknown = error;
    e instanceof Error && !code;
    e = e.cause ?? (e as { originalError?: unknown }).originalError
  ) {
    code = (e as NodeJS.ErrnoException).code;
    inner = e.message.split('\n')[0] ?? inner;
  }
  const reason = code ?? inner;
  return reason && !message.includes(reason) ? `${message} (${reason})` : message;
}

/** `apikit spec validate|bundle|types`: work with the OpenAPI description itself. */
export const specCommand: CommandModule = {
  command: 'spec <command>',
  describe: 'Validate, bundle or generate types from the OpenAPI description',
  builder: (y: Argv) =>
    y
      .command(validate as unknown as CommandModule)
      .command(bundle as unknown as CommandModule)
      .command(types as unknown as CommandModule)
      .demandCommand(1, 'name a spec command: validate, bundle or types'),
  handler: () => undefined,
};
