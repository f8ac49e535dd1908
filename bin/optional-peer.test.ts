import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';
import { installLine, isInstalled, requirePeer } from './optional-peer.js';

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
      'apikit mock --engine prism needs apikit-no-such-package, which is not installed: npm i -D apikit-no-such-package',
    );
  });
});

describe('installLine', () => {
  it("installs a peer in the range of apikit's package.json", () => {
    // Prism is pinned: its path handling was measured with 5.14 (decision 0073).
    expect(installLine('@stoplight/prism-cli')).toBe('npm i -D @stoplight/prism-cli@^5.14.0');
    expect(installLine('openapi-typescript')).toMatch(/^npm i -D openapi-typescript@\^7\.\d+/);
    expect(installLine('left-pad')).toBe('npm i -D left-pad');
  });
});
