import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';
import { isInstalled, requirePeer } from './optional-peer.js';

describe('requirePeer', () => {
  it('passes for an installed package, even one whose exports hide its package.json', () => {
    expect(isInstalled('msw')).toBe(true);
    expect(() => requirePeer('@stoplight/prism-cli', 'apikit proxy')).not.toThrow();
  });

  it('names the command, the package and the install line when it is missing', () => {
    expect(isInstalled('apikit-no-such-package')).toBe(false);
    const call = () => requirePeer('apikit-no-such-package', 'apikit mock --engine prism');
    expect(call).toThrow(CliError);
    expect(call).toThrow(
      'apikit mock --engine prism needs apikit-no-such-package: npm i -D apikit-no-such-package',
    );
  });
});
