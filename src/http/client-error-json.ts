import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Node's codes for requests the HTTP parser rejects before Express sees them, and our answers. */
const STATUS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'the request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'the request was not received in time' },
  HPE_INVALID_TRANSFER_ENCODING: { status: 501, message: 'the Transfer-Encoding is not supported: send the body as is (Content-Length) or chunked, uncompressed' },
};

/** A JSON error answer written straight to a socket (there is no response object), then the connection ends. */
export function answerOnSocket(socket: Duplex, status: number, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ message });
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/**
 * Requests the HTTP parser rejects (not HTTP, broken headers, headers too large) never reach
 * Express; Node would answer them with an empty body. This answers them like every other error:
 * JSON with a `message`. Requests read before the bad bytes on the same connection (pipelining)
 * get their own answers first: the error is written once those are finished.
 */
export function answerClientErrorsAsJson(server: Server): void {
  const unanswered = new WeakMap<Duplex, Set<ServerResponse>>();
  // Before the app's listener: a response it finishes at once must be seen unfinished here first.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    let open = unanswered.get(socket);
    if (!open) unanswered.set(socket, (open = new Set()));
    const pending = open;
    pending.add(res);
    res.once('close', () => pending.delete(res));
    res.once('finish', () => pending.delete(res));
  });

  const whenAnswered = (socket: Duplex, then: () => void) => {
    const next = unanswered.get(socket)?.values().next();
    if (!next || next.done) return then();
    const res = next.value;
    const again = () => setImmediate(() => whenAnswered(socket, then));
    res.once('finish', again);
    res.once('close', again);
  };

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const known = STATUS[err.code ?? ''];
    const { status, message } = known ?? { status: 400, message: `malformed HTTP request (${err.code ?? err.message})` };
    whenAnswered(socket, () => answerOnSocket(socket, status, message));
  });
}
