import { fileURLToPath } from 'node:url';

const HIDE_MODULES = fileURLToPath(new URL('./hide-modules.cjs', import.meta.url));

/**
 * The environment of a child process that must not find `packages`, as in a project that did
 * not install them (optional peers: decision 0048).
 *
 * @example
 * await runCli(['proxy', url], { env: withoutPackages(['@stoplight/prism-cli']) });
 */
export function withoutPackages(packages: string[]): Record<string, string> {
  const options = process.env.NODE_OPTIONS ? `${process.env.NODE_OPTIONS} ` : '';
  return {
    NODE_OPTIONS: `${options}--require ${JSON.stringify(HIDE_MODULES)}`,
    APIKIT_TEST_HIDDEN_MODULES: packages.join(','),
  };
}
