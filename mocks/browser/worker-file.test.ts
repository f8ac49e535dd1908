import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';

/*
 * The committed worker script must be the one of the installed msw: MSW's client refuses a
 * worker of another version (its integrity check), and then the browser mocks silently stop
 * mocking. An msw upgrade therefore needs `npx msw init mocks/browser/public --no-save`.
 */

const COMMITTED = fileURLToPath(new URL('./public/mockServiceWorker.js', import.meta.url));
const INSTALLED = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js');
const REGENERATE = 'run `npx msw init mocks/browser/public --no-save` after an msw upgrade';

/** Formatting-insensitive: `npm run format` may have rewritten the committed copy. */
async function normalized(file: string): Promise<string> {
  const config = await resolveConfig(COMMITTED);
  return format(await readFile(file, 'utf8'), { ...config, filepath: COMMITTED });
}

function constant(text: string, name: string): string | undefined {
  return new RegExp(`const ${name} = ['"]([^'"]+)['"]`).exec(text)?.[1];
}

describe('mocks/browser/public/mockServiceWorker.js', () => {
  it('carries the installed msw’s version and integrity checksum', async () => {
    const [committed, installed] = await Promise.all(
      [COMMITTED, INSTALLED].map((file) => readFile(file, 'utf8')),
    );
    for (const name of ['PACKAGE_VERSION', 'INTEGRITY_CHECKSUM']) {
      expect(constant(installed, name), `${name} in msw's own worker`).toBeDefined();
      expect(constant(committed, name), `${name}: ${REGENERATE}`).toBe(constant(installed, name));
    }
  });

  it('is the installed msw’s worker, up to formatting', async () => {
    expect(await normalized(COMMITTED), REGENERATE).toBe(await normalized(INSTALLED));
  });
});
