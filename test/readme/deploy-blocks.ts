import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../spec/spec-path.js';

/**
 * The blocks of docs/deploy.md that a test runs, by the name in the marker before each:
 * `<!-- deploy-test: NAME (why) -->` then a fenced block.
 *
 * @example
 * deployBlocks(markdown).get('apikit.conf'); // the nginx configuration, as shown
 */
export function deployBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  // A block inside a list item is indented: the fence's indent is taken off every line.
  const marked = /<!-- deploy-test: (\S+)[^>]*-->\s*?\n([ \t]*)```\w*\n([\s\S]*?)\n\2```/g;
  for (const [, name = '', indent = '', code = ''] of markdown.matchAll(marked)) {
    const lines = code
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
    blocks.set(name, lines.join('\n'));
  }
  return blocks;
}

/** The statements of a small SQL script (one per `;` at the end of a line). */
export function sqlStatements(script: string): string[] {
  return script
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
}

/** What the test changes in the shown configuration: ports, and where the log goes. */
export interface NginxPlacement {
  instancePorts: [number, number, number];
  listenPort: number;
  dir: string;
}

/**
 * The documented conf.d file with the test's ports (3001-3003 and 8080 replaced; the balancer
 * on 127.0.0.1 only) and its access log in `dir`; nothing else changes. Throws when a
 * replaced text is not in the file exactly once, so that the doc cannot drift from the test.
 */
export function placeNginxConf(conf: string, place: NginxPlacement): string {
  const swaps: [string, string][] = [
    ['server 127.0.0.1:3001 ', `server 127.0.0.1:${place.instancePorts[0]} `],
    ['server 127.0.0.1:3002 ', `server 127.0.0.1:${place.instancePorts[1]} `],
    ['server 127.0.0.1:3003 ', `server 127.0.0.1:${place.instancePorts[2]} `],
    ['listen 8080;', `listen 127.0.0.1:${place.listenPort};`],
    ['/var/log/nginx/apikit.access.log', join(place.dir, 'apikit.access.log')],
  ];
  let placed = conf;
  for (const [from, to] of swaps) {
    if (placed.split(from).length !== 2) throw new Error(`"${from}" is not in the conf once`);
    placed = placed.replace(from, to);
  }
  return placed;
}

/** nginx's binary, installed by scripts/ensure-nginx.sh when missing (root on Debian). */
export function nginxBinary(): string {
  const binary = '/usr/sbin/nginx';
  if (existsSync(binary)) return binary;
  const ensure = join(packageRoot, 'scripts', 'ensure-nginx.sh');
  const result = spawnSync('bash', [ensure], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0 || !existsSync(binary))
    throw new Error(`nginx is missing and ${ensure} could not install it`);
  return binary;
}

/**
 * Starts nginx in the foreground with a main configuration of the test's (pid, error log and
 * temporary files in `dir`) that includes `confFile` inside `http { }`, as Debian's nginx.conf
 * includes conf.d/*.conf. The caller stops it (SIGQUIT, then SIGKILL).
 */
export async function startNginx(dir: string, confFile: string): Promise<ChildProcess> {
  const temp = join(dir, 'temp');
  await mkdir(temp, { recursive: true });
  const main = join(dir, 'nginx.conf');
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `  ${kind}_temp_path ${join(temp, kind)};`)
    .join('\n');
  await writeFile(
    main,
    [
      // As root the workers would switch to "nobody", which may not read the test's folder.
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      temps,
      `  include ${confFile};`,
      '}',
      '',
    ].join('\n'),
  );
  const binary = nginxBinary();
  const check = spawnSync(binary, ['-t', '-p', dir, '-c', main, '-e', join(dir, 'error.log')], {
    encoding: 'utf8',
  });
  if (check.status !== 0) throw new Error(`nginx -t refused the configuration:\n${check.stderr}`);
  return spawn(binary, ['-p', dir, '-c', main, '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}
