import { connect } from 'node:net';

/** A response read off a raw socket: status, lower-cased headers, body. */
export interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
  /** Everything that arrived, as sent. */
  text: string;
}

/**
 * Writes `bytes` to a fresh TCP connection and reads until the server closes it: for requests
 * that no HTTP client would send (unknown methods, malformed request lines). Bounded by a
 * deadline.
 *
 * @example
 * const res = await rawExchange(server.url, 'BREW /api/v1/users HTTP/1.1\r\nHost: x\r\n\r\n');
 */
export function rawExchange(url: string, bytes: string, timeoutMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes, 'latin1'));
    const timer = setTimeout(() => socket.destroy(new Error('raw exchange timed out')), timeoutMs);
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', body = ''] = text.split(/\r\n\r\n(.*)/s);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0)
          headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, text });
    });
  });
}
