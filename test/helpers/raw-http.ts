import { connect } from 'node:net';

export interface RawAnswer {
  /** `413 Payload Too Large` */
  status: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Writes raw bytes to 127.0.0.1:`port` (then half-closes when `halfClose`), and resolves with
 * everything the server sends back once it closes the connection. A server that never answers or
 * never closes leaves the promise pending: the test's timeout is the failure.
 */
export function rawExchange(port: number, bytes: string | Buffer, opts: { halfClose?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(bytes);
      if (opts.halfClose) socket.end();
    });
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

/** The answers in a raw response stream, in order: status, headers, JSON body. */
export function rawAnswers(text: string): RawAnswer[] {
  const out: RawAnswer[] = [];
  let rest = Buffer.from(text, 'utf8');
  while (rest.subarray(0, 9).toString('latin1') === 'HTTP/1.1 ') {
    const headEnd = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    const body = rest.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
    out.push({ status: statusLine.slice(9), headers, body: length > 0 ? JSON.parse(body) : undefined });
    rest = rest.subarray(headEnd + 4 + length);
  }
  return out;
}
