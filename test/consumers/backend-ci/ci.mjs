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

// Without Prism, the commands that need it say so (not the spec's fault), exit 2 (decision 0099).
const prismHint =
  'needs @stoplight/prism-cli, which is not installed: npm i -D @stoplight/prism-cli@^5.14.0';
const hint = npx(['mock', '--engine', 'prism', '--port', '0']);
check(
  hint.status === 2 && hint.stderr.includes(`apikit mock --engine prism ${prismHint}`),
  `apikit mock --engine prism without Prism names the install (exit ${hint.status}): ${hint.stderr.trim()}`,
);
const proxyHint = npx(['proxy', 'http://127.0.0.1:9', '--port', '0']);
check(
  proxyHint.status === 2 && proxyHint.stderr.includes(`apikit proxy ${prismHint}`),
  `apikit proxy without Prism names the install (exit ${proxyHint.status}): ${proxyHint.stderr.trim()}`,
);

// The package's Node entries work without the CLI's packages installed (they are bundled).
const { createServer } = await import('user-order-apikit/server');
const embedded = await createServer({ port: 0, memory: true });
try {
  const health = await fetch(`${embedded.url}/healthz`);
  check(
    health.status === 200,
    `user-order-apikit/server: createServer({ port: 0 }) answers /healthz with ${health.status}`,
  );
} finally {
  await embedded.close();
}
const conformApi = await import('user-order-apikit/conform');
check(
  typeof conformApi.runConformance === 'function',
  'user-order-apikit/conform exports runConformance',
);

/**
 * Starts a long-running apikit command on port 0; resolves with its URL and a stop() that sends
 * SIGTERM to its process group (npx and the server behind it), or with `npxOnly` to npx alone
 * as `kill %1` or a container runtime does, and resolves with npx's exit.
 */
async function start(args) {
  const child = spawn('npx', ['--no', '--', 'apikit', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL from apikit ${args[0]}:\n${output}`)),
      30_000,
    );
    const read = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`apikit ${args[0]} exited ${code}:\n${output}`)));
  });
  const exited = new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? signal)));
  return {
    url,
    stop: ({ npxOnly = false } = {}) => {
      process.kill(npxOnly ? child.pid : -child.pid, 'SIGTERM');
      return exited;
    },
  };
}

// The stateful mocks over HTTP, for a frontend's dev server or an e2e run.
const mock = await start(['mock', '--port', '0', '--auth', 'off']);
try {
  const res = await fetch(`${mock.url}/api/v1/users?size=1`);
  const body = await res.json();
  check(
    res.status === 200 && body.content.length === 1 && body.totalElements > 1,
    `apikit mock --auth off answers GET /api/v1/users?size=1 with ${res.status}, ${body.content?.length} user of ${body.totalElements}`,
  );
} finally {
  await mock.stop();
}

const { url, stop } = await start([
  'serve',
  '--port',
  '0',
  '--memory',
  '--rate-limit',
  '0',
  '--login-rate-limit',
  '0',
]);
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
  // npm hands the SIGTERM only to its `sh -c`, which dies; apikit notices its parent gone and
  // drains as on SIGTERM (decision 0099).
  const code = await stop({ npxOnly: true });
  // npx goes at once; the server behind it drains, then its port refuses connections.
  let gone = false;
  for (let i = 0; i < 50 && !gone; i++) {
    gone = await fetch(`${url}/healthz`).then(
      () => false,
      () => true,
    );
    if (!gone) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  check(
    gone,
    `apikit serve exits on a SIGTERM to npx alone (npx: ${code}; the port refuses connections)`,
  );
}
