#!/usr/bin/env node
// `npm install`'s prepare: compile dist/ (tsc, then the CLI and mocks bundles). Skipped when npx
// runs it: `npx apikit ...` in this checkout installs the checkout into npx's cache to link its
// bin (npm's libnpmexec), and that install runs prepare again; rebuilding there made the first
// `npx apikit` of a fresh clone wait 21-23 s for a dist/ that `npm install` had just built
// (issue 31). The published package has no scripts.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (process.env.npm_command === 'exec' && existsSync(`${root}dist/cli/cli.js`)) process.exit(0);
execSync('npm run build', { cwd: root, stdio: 'inherit' });
