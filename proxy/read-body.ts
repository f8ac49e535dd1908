import type { IncomingMessage, ServerResponse } from 'node:http';

/** Prism refuses bodies over 10 MB; larger ones are not buffered further. */
export const MAX_BUFFERED_BYTES = 10 * 1024 * 1024;

/** The whole request body; rejects past `MAX_BUFFERED_BYTES`. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BUFFERED_BYTES) throw new Error('request body too large for the proxy');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Over Prism's own limit: refused here rather than half-forwarded. */
export function refuseTooLarge(res: ServerResponse): void {
  const problem = JSON.stringify({
    type: 'about:blank',
    title: 'Payload Too Large',
    status: 413,
    detail: `the validation proxy takes bodies up to ${MAX_BUFFERED_BYTES} bytes`,
  });
  res.writeHead(413, {
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(problem),
    Connection: 'close',
  });
  res.end(problem);
}

/** Why a JSON-typed body does not parse, or undefined (not JSON-typed, empty, or fine). */
export function unparsableJson(contentType: string | undefined, body: Buffer): string | undefined {
  if (body.length === 0 || !/^application\/([\w.+-]+\+)?json\b/i.test(contentType ?? ''))
    return undefined;
  try {
    JSON.parse(body.toString('utf8'));
    return undefined;
  } catch (error) {
    return `the body is not valid JSON (${(error as Error).message})`;
  }
}
