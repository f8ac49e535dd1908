/**
 * The shell blocks of a Markdown file, with the directive that tells the README test how to run
 * each one. A directive is an HTML comment on the line before the fence (invisible on GitHub):
 *
 *   <!-- readme-test: skip REASON -->   not run; the reason is required and reported
 *   <!-- readme-test: own-server -->    the block starts the server it talks to itself
 *   <!-- readme-test: serves PATH -->   the block runs a server in the foreground: it passes once
 *                                       PATH answers on it, and is then stopped
 *
 * A block without a directive runs against a fresh server where `npm start` would put it
 * (127.0.0.1:3000, the demo data, the default limits).
 */
export type BlockMode =
  | { kind: 'fresh-server' }
  | { kind: 'own-server' }
  | { kind: 'serves'; path: string }
  | { kind: 'skip'; reason: string };

export interface ShellBlock {
  /** 1-based line of the opening fence, for messages that point at the README. */
  line: number;
  /** The nearest heading above the block. */
  heading: string;
  code: string;
  mode: BlockMode;
}

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);
const DIRECTIVE = /^<!--\s*readme-test:\s*(skip|own-server|serves)\b\s*(.*?)\s*-->$/;

/** Every fenced shell block of `markdown`, in order. Throws on a malformed directive. */
export function readmeShellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    const fence = /^(```+|~~~+)\s*([\w-]*)/.exec(line);
    if (!fence) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith(fence[1]!));
    if (end < 0) throw new Error(`README line ${i + 1}: code fence never closed`);
    if (SHELL_LANGUAGES.has(fence[2]!)) {
      blocks.push({
        line: i + 1,
        heading,
        code: lines.slice(i + 1, end).join('\n'),
        mode: directiveBefore(lines, i),
      });
    }
    i = end;
  }
  return blocks;
}

function directiveBefore(lines: string[], fenceIndex: number): BlockMode {
  let j = fenceIndex - 1;
  while (j >= 0 && lines[j]!.trim() === '') j--;
  const text = j >= 0 ? lines[j]!.trim() : '';
  if (!text.startsWith('<!-- readme-test')) return { kind: 'fresh-server' };
  const match = DIRECTIVE.exec(text);
  if (!match) throw new Error(`README line ${j + 1}: unknown readme-test directive: ${text}`);
  const [, kind, rest] = match;
  if (kind === 'skip') {
    if (!rest) throw new Error(`README line ${j + 1}: a skipped block must say why`);
    return { kind: 'skip', reason: rest };
  }
  if (kind === 'serves') {
    if (!rest?.startsWith('/')) throw new Error(`README line ${j + 1}: serves needs a path`);
    return { kind: 'serves', path: rest };
  }
  return { kind: 'own-server' };
}

/**
 * Where the README says 3000 (the default port of `npm start` and `apikit serve`), the test
 * uses a free port of its own, so that blocks can run beside other tests and a developer's
 * running server.
 */
export function onPort(code: string, port: number): string {
  return code
    .replace(/\b(127\.0\.0\.1|localhost):3000\b/g, `127.0.0.1:${port}`)
    .replace(/--port 3000\b/g, `--port ${port}`);
}

/**
 * The statuses a block documents in its output comments (`# HTTP/1.1 201 Created`), in order:
 * the test holds the real output to them, so a session that stops working as shown fails.
 */
export function documentedStatuses(code: string): number[] {
  return [...code.matchAll(/^#\s*HTTP\/[\d.]+ (\d{3})\b/gm)].map((m) => Number(m[1]));
}
