#!/usr/bin/env node
// A throwaway PostgreSQL cluster for tests, benchmarks and trying `apikit serve --database-url`:
// initdb into a fresh temporary folder, pg_ctl on 127.0.0.1 at a free port (and a unix socket in
// that folder), trust authentication on loopback only, removed when stopped. PostgreSQL refuses
// to run as root, so as root every command runs as the `postgres` user (runuser) in a folder it
// owns; as anyone else they run directly. The binaries are Debian's (/usr/lib/postgresql/N/bin,
// the newest N), or $APIKIT_PG_BIN; when missing, scripts/postgres/ensure-postgresql.sh installs
// the `postgresql` package (root on Debian only). Decision 0084.
//
//   node scripts/postgres/throwaway-cluster.mjs                start, print the URL, stop on Ctrl-C
//   node scripts/postgres/throwaway-cluster.mjs start          start detached, print JSON
//   node scripts/postgres/throwaway-cluster.mjs stop DIR       stop a detached one, remove DIR
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ENSURE = fileURLToPath(new URL('./ensure-postgresql.sh', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

/** Settings for a cluster nobody keeps: no fsync (the OS still has every write), quick. */
const TEST_SETTINGS = {
  listen_addresses: '127.0.0.1',
  fsync: 'off',
  full_page_writes: 'off',
  // Kept on: an immediate shutdown must not lose a commit that was acknowledged.
  synchronous_commit: 'on',
  max_connections: '200',
  shared_buffers: '128MB',
};

/** The folder of initdb/pg_ctl, installing Debian's package when there is none. */
export function postgresBinDir({ install = true } = {}) {
  const found = findBinDir();
  if (found !== undefined) return found;
  if (install) {
    const result = spawnSync('bash', [ENSURE], { stdio: ['ignore', 'inherit', 'inherit'] });
    const after = findBinDir();
    if (result.status === 0 && after !== undefined) return after;
  }
  throw new Error(
    'PostgreSQL binaries not found: install Debian\'s "postgresql" package ' +
      `(bash ${ENSURE}) or set APIKIT_PG_BIN to the folder holding initdb and pg_ctl`,
  );
}

function findBinDir() {
  const fromEnv = process.env.APIKIT_PG_BIN;
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : undefined;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => existsSync(join(debian, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(debian, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const initdb = which.status === 0 ? which.stdout.trim() : '';
  return initdb ? join(initdb, '..') : undefined;
}

/** Runs a PostgreSQL binary as the postgres user when we are root, else as ourselves. */
function runAsOwner(command, args, options = {}) {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args];
  return execFileSync(file, argv, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
}

/** A folder the cluster's owner may write: ours, or chowned to postgres when we are root. */
function makeOwnedDir() {
  const dir = mkdtempSync(join(tmpdir(), 'apikit-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  return dir;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function settingArgs(settings) {
  return Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
}

/**
 * Creates and starts a cluster. `stop()` stops it (keeping the folder: `start()` again, the
 * fault tests' restart), `destroy()` stops it and removes the folder.
 *
 * @example
 * const cluster = await startCluster();
 * process.env.DATABASE_URL = cluster.url; // postgres://postgres@127.0.0.1:PORT/postgres
 * await cluster.destroy();
 */
export async function startCluster(options = {}) {
  const bin = postgresBinDir();
  const dir = options.dir ?? makeOwnedDir();
  const data = join(dir, 'data');
  const socketDir = join(dir, 'socket');
  if (!existsSync(data)) {
    runAsOwner(join(bin, 'initdb'), [
      ...['-D', data, '-U', 'postgres', '-E', 'UTF8', '--locale=C'],
      ...['--auth-local=trust', '--auth-host=trust', '--no-sync'],
    ]);
    runAsOwner('mkdir', ['-p', socketDir]);
  }
  const settings = { ...TEST_SETTINGS, ...options.settings };
  let port = options.port ?? 0;
  const cluster = {
    dir,
    socketDir,
    get port() {
      return port;
    },
    get url() {
      return `postgres://postgres@127.0.0.1:${port}/postgres`;
    },
    /** The URL of another database of this cluster. */
    urlOf: (database) => `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    async start() {
      for (let attempt = 1; ; attempt += 1) {
        if (!options.port && (attempt > 1 || port === 0)) port = await freePort();
        try {
          const opts = `-p ${port} -k ${socketDir} ${settingArgs(settings)}`;
          runAsOwner(join(bin, 'pg_ctl'), [
            '-D',
            data,
            '-l',
            join(dir, 'log'),
            '-w',
            '-t',
            '60',
            '-o',
            opts,
            'start',
          ]);
          return;
        } catch (error) {
          // Another process took the port between freePort() and the bind: try another one.
          if (attempt >= 3 || options.port) throw withLog(error, dir);
        }
      }
    },
    /** `mode`: fast (the default) or immediate (a crash: recovery runs at the next start). */
    stop(mode = 'fast') {
      if (!existsSync(join(data, 'postmaster.pid'))) return;
      runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
    },
    async destroy() {
      try {
        cluster.stop('immediate');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  await cluster.start();
  if (options.watchParent !== false) watchParent(dir);
  return cluster;
}

/**
 * A detached watcher that stops the cluster and removes its folder should this process die
 * without destroy() (a killed test worker): no PostgreSQL is left running for nobody. It ends
 * by itself once the folder is gone.
 */
function watchParent(dir) {
  const args = [SELF, 'watch', String(process.pid), dir];
  spawn(process.execPath, args, { detached: true, stdio: 'ignore' }).unref();
}

function watch(pid, dir) {
  setInterval(() => {
    if (!existsSync(dir)) process.exit(0);
    try {
      process.kill(pid, 0);
    } catch {
      stopOnly(dir).finally(() => process.exit(0));
    }
  }, 1_000);
}

function withLog(error, dir) {
  const log = spawnSync('tail', ['-n', '20', join(dir, 'log')], { encoding: 'utf8' }).stdout;
  const stderr = error?.stderr ? String(error.stderr) : '';
  return new Error(`pg_ctl start failed: ${stderr}\n${log ?? ''}`, { cause: error });
}

async function main([command, dir, third]) {
  if (command === 'watch') return watch(Number(dir), third);
  if (command === 'stop') {
    if (!dir) throw new Error('usage: throwaway-cluster.mjs stop DIR');
    await stopOnly(dir);
    return;
  }
  const cluster = await startCluster({ watchParent: command !== 'start' });
  const about = {
    url: cluster.url,
    port: cluster.port,
    dir: cluster.dir,
    socketDir: cluster.socketDir,
  };
  if (command === 'start') {
    console.log(JSON.stringify(about));
    return;
  }
  console.log(
    `PostgreSQL (throwaway) at ${cluster.url}   (user ${userInfo().username}; Ctrl-C stops and removes it)`,
  );
  const end = async () => {
    await cluster.destroy();
    process.exit(0);
  };
  process.once('SIGINT', end);
  process.once('SIGTERM', end);
  setInterval(() => {}, 1 << 30);
}

async function stopOnly(dir) {
  const bin = postgresBinDir({ install: false });
  try {
    if (existsSync(join(dir, 'data', 'postmaster.pid')))
      runAsOwner(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
