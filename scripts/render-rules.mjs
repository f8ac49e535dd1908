#!/usr/bin/env node
// Renders the rule inventory (conformance/rules/) into docs/conformance-rules.md, formatted
// as prettier would, so that `npm run format:check` and the inventory's test both hold. The
// TypeScript is bundled in memory with esbuild (Node 20 runs no .ts), so no build is needed.
//
//   node scripts/render-rules.mjs        (npm run render:rules)
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import * as prettier from 'prettier';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = join(root, 'docs/conformance-rules.md');

const entry = `
import { renderRules } from './conformance/rules/render-rules.ts';
import { checksWithoutRule, ruleInventory } from './conformance/rules/rule-inventory.ts';
export default renderRules(ruleInventory, checksWithoutRule);
`;

const bundle = await esbuild.build({
  stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'render-entry.ts' },
  bundle: true,
  format: 'esm',
  platform: 'node',
  write: false,
});
const code = bundle.outputFiles[0].text;
const { default: markdown } = await import(
  `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`
);
const options = { ...(await prettier.resolveConfig(target)), filepath: target };
await writeFile(target, await prettier.format(markdown, options));
console.log(`wrote ${target}`);
