// What a backend team's CI does with the installed CLI: start a server (here apikit's own
// reference server stands in for the team's service) on a free port, run `apikit conform`
// against it with JUnit output, and stop it. Exits non-zero on any failure, saying why.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `npx --no`: the installed apikit, never one fetched from the registry.
const npx = (args, options = {}) =>
  spawnSync('npx', ['--no', '--', 'apikit', ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    ...options,
  });

function check(condition, message) {
  if (!condition) {
    console.error(`✗ ${message}`);
    process.exit(1);
  }
  console.log(`✓ ${message}`);
}

const version = npx(['--version']);
check(
  version.status === 0 && /^\d+\.\d+\.\d+/.test(version.stdout),
  `apikit --version: ${version.stdout.trim()}`,
);

const hint = npx(['mock', '--engine', 'prism', '--port', '0']);
check(
  hint.status === 2 &&
    hint.stderr.includes(
      'apikit mock --engine prism needs @stoplight/prism-cli: npm i -D @stoplight/prism-cli',
    ),
  `apikit mock --engine prism without Prism names the install (exit ${hint.status}): ${hint.stderr.trim()}`,
);

// The package's Node entries work without the CLI's packages installed (they are bundled).
const { createServer } = await import('apikit/server');
const embedded = await createServer({ port: 0, memory: true });
try {
  const health = await fetch(`${embedded.url}/healthz`);
  check(
    health.status === 200,
    `apikit/server: createServer({ port: 0 }) answers /healthz with ${health.status}`,
  );
} finally {
  await embedded.close();
}
const conformApi = await import('apikit/conform');
check(typeof conformApi.runConformance === 'function', 'apikit/conform exports runConformance');

const server = spawn(
  'npx',
  [
    '--no',
    'apikit',
    'serve',
    '--port',
    '0',
    '--memory',
    '--rate-limit',
    '0',
    '--login-rate-limit',
    '0',
  ],
  // Its own process group: SIGTERM reaches the server, not only npx in front of it.
  { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
);
let output = '';
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`no URL from apikit serve:\n${output}`)), 30_000);
  const read = (chunk) => {
    output += chunk;
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  };
  server.stdout.on('data', read);
  server.stderr.on('data', read);
  server.on('exit', (code) => reject(new Error(`apikit serve exited ${code}:\n${output}`)));
});
check(true, `apikit serve --port 0 listening on ${url}`);

try {
  const health = await fetch(`${url}/healthz`);
  check(health.status === 200, `GET /healthz answers ${health.status}`);
  const docs = await fetch(`${url}/docs`);
  check(
    docs.status === 200 && (await docs.text()).includes('npm i -D swagger-ui-dist'),
    'GET /docs without swagger-ui-dist says how to get the interactive page',
  );

  const reports = mkdtempSync(join(tmpdir(), 'apikit-conform-'));
  const conform = npx(
    [
      'conform',
      `${url}/api/v1`,
      '--username',
      'user@example.com',
      '--password',
      'user-demo-password',
      '--admin-username',
      'admin@example.com',
      '--admin-password',
      'admin-demo-password',
      '--reporter',
      'console',
      '--reporter',
      'junit',
      '--output',
      reports,
    ],
    { timeout: 300_000 },
  );
  const summary = /\d+\/\d+ documented \(operation, status\) pairs exercised[^\n]*/.exec(
    conform.stdout,
  );
  check(
    conform.status === 0,
    `apikit conform exits 0 against the reference server (${summary?.[0] ?? conform.stdout.slice(-2000) + conform.stderr})`,
  );
  const junit = readdirSync(reports).filter((name) => name.endsWith('.xml'));
  check(junit.length === 1, `a JUnit report is written (${junit.join(', ')})`);
  const xml = readFileSync(join(reports, junit[0]), 'utf8');
  const totals = /<testsuites[^>]* tests="(\d+)" failures="(\d+)" errors="(\d+)"/.exec(xml);
  check(
    totals !== null && Number(totals[1]) > 100 && totals[2] === '0' && totals[3] === '0',
    `the JUnit report: ${totals?.[0]}`,
  );
} finally {
  process.kill(-server.pid, 'SIGTERM');
  const code = await new Promise((resolve) =>
    server.on('exit', (c, signal) => resolve(c ?? signal)),
  );
  check(code === 0 || code === 'SIGTERM', `apikit serve drains and exits on SIGTERM (${code})`);
}
