// The assertions every consumer harness makes about its installed app: what apikit adds to it,
// that its lock file is in step with package.json, and which versions it resolved.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { lockedApikitFields } from './consumer-fixture.js';
import { footprint } from './footprint.js';

/** Prints what apikit adds to the installed `app` beyond msw, and holds it to 60 packages, 40 MB. */
export function expectSmallFootprint(app: string, label: string): void {
  const { packages, bytes } = footprint(app, 'user-order-apikit', ['msw']);
  console.log(
    `apikit footprint in the ${label} beyond msw: ${packages.length} packages, ${(bytes / 1e6).toFixed(1)} MB (${packages.join(', ')})`,
  );
  expect(packages.filter((name) => /^(pg|pg-.*|postgres.*)$/.test(name))).toEqual([]);
  expect(packages.length).toBeLessThanOrEqual(60);
  expect(bytes).toBeLessThanOrEqual(40e6);
}

/** The fixture's lock (its source folder) records apikit's dependency fields as package.json has them. */
export function expectLockInStep(fixtureDir: string, rootDir: string): void {
  const name = fixtureDir.split(/[\\/]/).pop();
  for (const { field, locked, declared } of lockedApikitFields(fixtureDir, rootDir))
    expect(
      locked,
      `${name}/package-lock.json: ${field} differs from package.json; run node scripts/consumer-locks.mjs ${name}`,
    ).toEqual(declared);
}

/** The version of `name` installed in `app`. */
export function installedVersion(app: string, name: string): string {
  const manifest = JSON.parse(
    readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8'),
  ) as { version: string };
  return manifest.version;
}
