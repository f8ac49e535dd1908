import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { specPath } from '../../spec/spec-path.js';
import { CliError } from '../cli-error.js';

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
        describe: 'description (default: the bundled contract)',
      })
      .option('output', {
        alias: 'o',
        type: 'string',
        describe: 'write to this file instead of stdout',
      })
      .option('check', {
        type: 'boolean',
        default: false,
        describe: 'exit 1 when --output differs from what would be generated',
      }),
  handler: async (args) => {
    const { generateTypes } = await import('../../spec/generate-types.js');
    const text = await generateTypes(resolve(args.file ?? specPath));
    if (args.check) {
      if (!args.output) throw new CliError('--check needs --output');
      const current = await readFile(args.output, 'utf8').catch(() => '');
      if (current !== text) {
        console.error(`✗ ${args.output} is stale: run \`npm run gen:types\``);
        process.exitCode = 1;
      } else console.log(`✓ ${args.output} is up to date`);
    } else if (args.output) await writeFile(args.output, text);
    else process.stdout.write(text);
  },
};

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
