import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** Node's codes for requests the HTTP parser rejects before Express sees them, and our answers. */
const STATUS: Record<string, { status: number; text: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, text: 'Request Header Fields Too Large', message: 'the request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, text: 'Request Timeout', message: 'the request was not received in time' },
};

/**
 * Requests the HTTP parser rejects (not HTTP, broken headers, headers too large) never reach
 * Express; Node would answer them with an empty body. This answers them like every other error:
 * JSON with a `message`.
 */
export function answerClientErrorsAsJson(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const known = STATUS[err.code ?? ''];
    const { status, text, message } = known ?? { status: 400, text: 'Bad Request', message: `malformed HTTP request (${err.code ?? err.message})` };
    const body = JSON.stringify({ message });
    socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}
