/**
 * Collects the lines written during one turn of the event loop and hands them to `write` as
 * one text at the end of the turn. A request log line per request, each written with its own
 * (synchronous) call to stderr, cost a fifth of a small read's throughput; under load many
 * requests finish in one turn. `flush` writes what is pending at once (on exit).
 *
 * @example
 * const lines = batchedLines((text) => process.stderr.write(text));
 * process.on('exit', lines.flush);
 * lines.write(JSON.stringify(entry) + '\n');
 */
export function batchedLines(write: (text: string) => void): {
  write(line: string): void;
  flush(): void;
} {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    write(text);
  };
  return {
    write(line) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
