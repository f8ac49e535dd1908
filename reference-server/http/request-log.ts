import { batchedLines } from './batched-lines.js';

/** A log line as the server makes it (`createServer({ log })`). */
type LogLine = Record<string, unknown>;

/** How log lines are written: `pretty` for a person at a terminal, `json` lines for machines. */
export type LogFormat = 'pretty' | 'json' | 'off';
/** The least severe level written: `error` only errors, `info` also one line per request. */
export type LogLevel = 'error' | 'warn' | 'info';

const SEVERITY: Record<string, number> = { error: 50, warn: 40, info: 30, debug: 20 };

export interface RequestLogOptions {
  format: LogFormat;
  level?: LogLevel;
  /** Where the text goes, a turn of the event loop at a time (default: stderr). */
  write?: (text: string) => void;
  /** ANSI colours in `pretty` (default: when stderr is a terminal and NO_COLOR is unset). */
  color?: boolean;
}

/**
 * The server's log: `(line) => void` for `createServer({ log })`, or undefined for `off`.
 * Lines below `level` are dropped before they are formatted; the rest are batched per turn of
 * the event loop (`batchedLines`, decision 0023's rules for their content; 0057 for why not
 * pino). `flush` writes what is pending (call it on exit).
 *
 * @example
 * const log = requestLog({ format: process.stderr.isTTY ? 'pretty' : 'json' });
 * process.on('exit', log.flush);
 * await createServer({ log: log.write });
 */
export function requestLog(options: RequestLogOptions): {
  write: ((line: LogLine) => void) | undefined;
  flush: () => void;
} {
  if (options.format === 'off') return { write: undefined, flush: () => {} };
  const lines = batchedLines(options.write ?? ((text) => process.stderr.write(text)));
  const least = SEVERITY[options.level ?? 'info'] ?? 30;
  const color =
    options.color ?? (Boolean(process.stderr.isTTY) && process.env['NO_COLOR'] === undefined);
  const format =
    options.format === 'json'
      ? (line: LogLine) => JSON.stringify(line) + '\n'
      : (line: LogLine) => formatPretty(line, color) + '\n';
  return {
    write: (line) => {
      if ((SEVERITY[String(line.level)] ?? 30) >= least) lines.write(format(line));
    },
    flush: lines.flush,
  };
}

const RESET = '\x1b[0m';
const DIM = '\x1b[2m';
const LEVEL_COLOR: Record<string, string> = {
  error: '\x1b[31m',
  warn: '\x1b[33m',
  info: '\x1b[32m',
};

/**
 * One line for a person: `12:03:04.123 INFO  GET /api/v1/users 200 3.2 ms  req=2416dd97-…`,
 * or for other lines, the message and then every other field as `key=value`.
 *
 * @example
 * formatPretty({ time: '2026-01-01T12:03:04.123Z', level: 'info', msg: 'request', method: 'GET',
 *   path: '/healthz', status: 200, durationMs: 0.4, requestId: 'abc' }, false);
 * // '12:03:04.123 INFO  GET /healthz 200 0.4 ms  req=abc'
 */
export function formatPretty(line: LogLine, color: boolean): string {
  const paint = (code: string | undefined, text: string) =>
    color && code ? `${code}${text}${RESET}` : text;
  const { time, level, msg, requestId, ...rest } = line;
  const clock = typeof time === 'string' ? time.slice(11, 23) : '';
  const name = String(level ?? 'info');
  const head = `${paint(DIM, clock)} ${paint(LEVEL_COLOR[name], name.toUpperCase().padEnd(5))}`;
  const id = requestId === undefined ? '' : `  ${paint(DIM, `req=${String(requestId)}`)}`;
  if (msg === 'request') {
    const { method, path, status, durationMs, ...more } = rest;
    const code = Number(status);
    const statusColor =
      code >= 500 ? '\x1b[31m' : code >= 400 ? '\x1b[33m' : code >= 300 ? '\x1b[36m' : '\x1b[32m';
    return `${head} ${String(method)} ${String(path)} ${paint(statusColor, String(status))} ${String(durationMs)} ms${fields(more)}${id}`;
  }
  return `${head} ${String(msg ?? '')}${fields(rest)}${id}`;
}

function fields(values: Record<string, unknown>): string {
  let text = '';
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const shown =
      typeof value === 'string' && !/[\s"=]/.test(value) ? value : JSON.stringify(value);
    text += ` ${key}=${shown}`;
  }
  return text;
}
