/**
 * The load generator's process: `node dist/bench/load-driver.js '<LoadSpec as JSON>'` fires
 * autocannon at one URL and prints one line of JSON (a LoadResult) on stdout. It runs apart
 * from the harness and from the subject, so the subject's event loop shares nothing with it.
 * bench/load.ts spawns it.
 */
import autocannon, { type Options, type Result } from 'autocannon';
import { randomBytes } from 'node:crypto';
import { UNIQUE_TOKEN, type LoadResult, type LoadSpec } from './load-spec.js';

/** Pause between the warmup and the measured load. */
const SETTLE_MS = 1_000;

function options(spec: LoadSpec, phase: 'warmup' | 'measure'): Options {
  const base: Options = {
    url: spec.url,
    connections: spec.connections,
    timeout: 10,
  };
  const amount = phase === 'warmup' ? spec.warmupAmount : spec.amount;
  const seconds = phase === 'warmup' ? spec.warmupSeconds : spec.durationSeconds;
  // autocannon refuses fewer requests than connections.
  if (amount !== undefined) base.amount = Math.max(amount, spec.connections);
  else base.duration = seconds ?? 1;
  const method = spec.method ?? 'GET';
  const headers = spec.headers ?? {};
  const template = spec.body;
  if (template === undefined) return { ...base, method, headers };
  if (!template.includes(UNIQUE_TOKEN)) return { ...base, method, headers, body: template };
  // A unique number per request (an email no other request used): a random prefix per
  // process and phase, then a counter.
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;
  return {
    ...base,
    requests: [
      {
        method,
        headers,
        setupRequest: (request) => ({
          ...request,
          body: template.split(UNIQUE_TOKEN).join(`${prefix}${counter++}`),
        }),
      },
    ],
  };
}

/** What autocannon reported, and when the load started and its last answer came. */
interface Fired {
  result: Result;
  startedAt: number;
  lastAnswerAt: number;
}

/** Runs autocannon, stopping it after `maxSeconds` whatever its amount. */
async function fire(spec: LoadSpec, phase: 'warmup' | 'measure'): Promise<Fired> {
  const startedAt = performance.now();
  let lastAnswerAt = startedAt;
  const instance = autocannon(options(spec, phase));
  instance.on('response', () => {
    lastAnswerAt = performance.now();
  });
  const timer = setTimeout(() => instance.stop(), spec.maxSeconds * 1000);
  try {
    return { result: await instance, startedAt, lastAnswerAt };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The measurement as a LoadResult. With a request count, autocannon ends (and reports its
 * duration) only at its next whole-second sample, so 1,000 answers in 2.1 s read as 3 s;
 * the time from the start to the last answer is what they took.
 */
function summarise(spec: LoadSpec, { result, startedAt, lastAnswerAt }: Fired): LoadResult {
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {}))
    statusCodes[code] = Number(count);
  const ok = result['2xx'];
  const seconds =
    spec.amount !== undefined ? Math.max(0, lastAnswerAt - startedAt) / 1000 : result.duration;
  return {
    okPerSecond: seconds > 0 ? ok / seconds : 0,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSeconds: Math.round(seconds * 1000) / 1000,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
    },
    statusCodes,
  };
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
  if (spec.warmupAmount !== undefined || spec.warmupSeconds !== undefined) {
    await fire(spec, 'warmup');
    // Let the warmup's connections close and both sides settle: measuring right away put a
    // stall of up to 2 s into the first measured second (seen with Express and the mock alike).
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  }
  const fired = await fire(spec, 'measure');
  process.stdout.write(JSON.stringify(summarise(spec, fired)) + '\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`load driver: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
