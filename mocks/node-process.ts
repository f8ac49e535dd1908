/**
 * What the mocks may use of Node's `process` where there is one (Node, Jest's and Vitest's
 * environments), found at run time on `globalThis`: never imported, so that the mocks' modules
 * stay free of Node built-ins for browsers and bundlers (decision 0112). Undefined in a browser.
 */
export interface NodeProcess {
  cwd(): string;
  env: Record<string, string | undefined>;
  pid: number;
  /** Node 20.16+ and 22.3+: a built-in module without an import. */
  getBuiltinModule?: (id: string) => unknown;
}

/** Node's `process`, or undefined outside Node. */
export function nodeProcess(): NodeProcess | undefined {
  const candidate = (globalThis as { process?: Partial<NodeProcess> }).process;
  return typeof candidate?.cwd === 'function' && typeof candidate.env === 'object'
    ? (candidate as NodeProcess)
    : undefined;
}

/** The synchronous part of `node:fs` the recording's file writer uses. */
export interface NodeFileSystem {
  readFileSync(path: string, encoding: 'utf8'): string;
  writeFileSync(path: string, data: string): void;
  renameSync(from: string, to: string): void;
  mkdirSync(path: string, options?: { recursive?: boolean }): unknown;
  rmSync(path: string, options?: { recursive?: boolean; force?: boolean }): void;
  statSync(path: string): { mtimeMs: number };
}

/** `node:fs` where the runtime has it, else undefined (a browser, a Node older than 20.16). */
export function nodeFileSystem(): NodeFileSystem | undefined {
  return nodeProcess()?.getBuiltinModule?.('node:fs') as NodeFileSystem | undefined;
}

/** A path relative to the working directory, with forward slashes (absolute ones outside it). */
export function relativeToCwd(path: string): string {
  const slashed = path.replace(/\\/g, '/').replace(/^file:\/\//, '');
  const cwd = nodeProcess()?.cwd().replace(/\\/g, '/');
  if (cwd && slashed.startsWith(`${cwd}/`)) return slashed.slice(cwd.length + 1);
  return slashed;
}
