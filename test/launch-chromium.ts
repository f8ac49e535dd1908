import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium (scripts/ensure-chromium.sh installs it; `npm test` runs that as pretest),
 * driven by playwright-core, which downloads no browser of its own.
 */
export const CHROMIUM = '/usr/bin/chromium';

/** Flags that let Chromium start on these machines' closed network (see the machine notes). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium for a browser test; close it in the test's teardown. */
export function launchChromium(timeoutMs = 30_000): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: timeoutMs });
}
