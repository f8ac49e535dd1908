import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../spec/spec-path.js';
import { bundleProbe } from './bundle-probe.js';
import { LAZY_LINES, oneLazyStringWidth } from './lazy-string-width.mjs';

const SAMPLES = ['漢字', '👍', 'e\u0301', '1\uFE0F\u20E3', '👨‍👩‍👧', 'Größe ✓'];

// string-width bundled the way scripts/build-cli.mjs bundles it, run in its own process after
// a preload that counts the Intl.Segmenters and RGI_Emoji patterns made (esbuild writes the
// `v`-flag pattern as `new RegExp(...)` for Node 20, so the count sees it being built).
const probe = `
import stringWidth from 'string-width';
const atLoad = { ...globalThis.made };
const ascii = stringWidth('apikit serve --port 3000');
const afterAscii = { ...globalThis.made };
const widths = ${JSON.stringify(SAMPLES)}.map((text) => stringWidth(text));
console.log(JSON.stringify({ atLoad, ascii, afterAscii, widths, afterWide: globalThis.made }));
`;
const counter = `
globalThis.made = { segmenters: 0, emojiPatterns: 0 };
const counted = (Real, count) => new Proxy(Real, { construct: (target, args, made) => (count(args), Reflect.construct(target, args, made)) });
globalThis.RegExp = counted(RegExp, (args) => { if (String(args[0]).includes('RGI_Emoji')) globalThis.made.emojiPatterns++; });
Intl.Segmenter = counted(Intl.Segmenter, () => globalThis.made.segmenters++);
`;
const probeFile = join(packageRoot, 'dist', 'lazy-string-width-probe.mjs');

let bundle: string;

beforeAll(async () => {
  bundle = await bundleProbe({ source: probe, plugins: [oneLazyStringWidth(packageRoot)] });
  writeFileSync(probeFile, bundle);
});

afterAll(() => rmSync(probeFile, { force: true }));

describe("the bundle's lazy string-width (decisions 0032, 0043)", () => {
  it('finds every line it makes lazy in the string-width it bundles', () => {
    for (const [eager, lazy] of LAZY_LINES) {
      expect(bundle).not.toContain(eager);
      expect(lazy).toContain('??=');
    }
    expect(bundle).toContain('madeSegmenter');
    expect(bundle).toContain('madeRgiEmojiRegex');
  });

  it('makes no segmenter and no emoji pattern for ASCII, and measures other text as string-width does', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(counter)}`, probeFile],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(run.stderr).toBe('');
    const seen = JSON.parse(run.stdout) as {
      atLoad: Record<string, number>;
      ascii: number;
      afterAscii: Record<string, number>;
      widths: number[];
      afterWide: Record<string, number>;
    };
    expect(seen.atLoad).toEqual({ segmenters: 0, emojiPatterns: 0 });
    expect(seen.ascii).toBe(24);
    expect(seen.afterAscii).toEqual({ segmenters: 0, emojiPatterns: 0 });
    expect(seen.widths).toEqual(SAMPLES.map((text) => stringWidth(text)));
    expect(seen.afterWide).toEqual({ segmenters: 1, emojiPatterns: 1 });
  });
});
