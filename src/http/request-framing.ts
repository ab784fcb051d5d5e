import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error';

/**
 * What is wrong with a request's framing, before any route runs, or undefined. Node's HTTP layer
 * would answer some of these itself with an empty body (a missing Host: 400), let others through
 * (`Transfer-Encoding: gzip, chunked` hands the route compressed bytes), or read a body it will
 * refuse to the last byte (a declared length over the limit). Each becomes a JSON answer here.
 */
export function framingProblem(req: IncomingMessage, bodyLimitBytes: number): HttpError | undefined {
  if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) {
    return new HttpError(400, 'the request has no Host header, which HTTP/1.1 requires');
  }
  const te = req.headers['transfer-encoding'];
  if (te !== undefined && te.trim().toLowerCase() !== 'chunked') {
    return new HttpError(501, `Transfer-Encoding "${te}" is not supported: send the body as is (Content-Length) or chunked, uncompressed`);
  }
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > bodyLimitBytes) {
    return new HttpError(413, `the body is larger than the limit of ${bodyLimitBytes} bytes (BODY_LIMIT)`);
  }
  return undefined;
}
