/** Where a bench ran: the commit under test and the machine, as the report records them. */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { MachineInfo } from './report.js';
import { REPO_ROOT } from './repo-root.js';

/** The commit under test, `+dirty` when the working tree differs (others may be editing). */
export function gitRevision(): string {
  try {
    const git = (args: string[]) =>
      execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', timeout: 10_000 }).trim();
    const head = git(['rev-parse', '--short', 'HEAD']);
    return git(['status', '--porcelain', '--untracked-files=no']) ? `${head}+dirty` : head;
  } catch {
    return 'unknown';
  }
}

export function machineInfo(loadStart: number): MachineInfo {
  return {
    cpus: os.availableParallelism?.() ?? os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryTotalMb: Math.round(os.totalmem() / 1024 / 1024),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverageStart: loadStart,
    loadAverageEnd: os.loadavg()[0] ?? 0,
  };
}
