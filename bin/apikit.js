#!/usr/bin/env node
// Thin launcher: the CLI is written in TypeScript, compiled to dist/ by `npm install` (prepare)
// and bundled into dist/cli/ (scripts/build-cli.mjs), so that a start reads a few files, not
// hundreds: `apikit serve` has 300 ms to answer its first request (decision 0032).
import module from 'node:module';

// Node 22.1+: V8 keeps the compiled code between starts. Node 20 has no such cache.
module.enableCompileCache?.();

// `apikit spec bundle | head`: a reader that hangs up early is not a crash.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const { main } = await import('../dist/cli/cli.js');

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 2;
  },
);
