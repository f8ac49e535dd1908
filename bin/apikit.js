#!/usr/bin/env node
// Thin launcher: the CLI is written in TypeScript and compiled to dist/ by `npm install` (prepare).
import { main } from '../dist/bin/cli.js';

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 2;
  },
);
