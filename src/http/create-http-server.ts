import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import bytes from 'bytes';
import { answerClientErrorsAsJson, answerOnSocket } from './client-error-json';
import { errorBody } from './error-handler';
import { HttpError } from './http-error';
import { framingProblem } from './request-framing';
import { sendJson } from './send-json';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** An error answer that also ends the connection: what follows the request on it cannot be trusted. */
function refuse(res: ServerResponse, error: HttpError): void {
  res.setHeader('Connection', 'close');
  sendJson(res, error.status, errorBody(error));
}

/**
 * The node:http server of the service, around `app`. Every answer Node's HTTP layer would make
 * itself is JSON with a `message` here: a request without Host, an `Expect` other than
 * 100-continue (417), a transfer coding other than chunked (501), CONNECT (405), a declared body
 * over BODY_LIMIT (413 at once, before any byte of it is read, and before `100 Continue`), and
 * requests the parser rejects (client-error-json.ts).
 */
export function createHttpServer(app: Handler, opts: { bodyLimit: string | number }): Server {
  const limit = typeof opts.bodyLimit === 'number' ? opts.bodyLimit : bytes.parse(opts.bodyLimit);
  if (limit === null || !Number.isFinite(limit)) throw new RangeError(`body limit ${String(opts.bodyLimit)} is not a size`);
  const handle: Handler = (req, res) => {
    const problem = framingProblem(req, limit);
    if (problem) refuse(res, problem);
    else app(req, res);
  };
  // requireHostHeader: false so that the missing Host gets our JSON answer, not Node's empty 400.
  const server = createServer({ requireHostHeader: false }, handle);
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const problem = framingProblem(req, limit);
    if (problem) return refuse(res, problem);
    res.writeContinue();
    server.emit('request', req, res);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    refuse(res, new HttpError(417, `Expect: ${req.headers.expect ?? ''} is not supported; the only expectation understood is 100-continue`));
  });
  server.on('connect', (_req: IncomingMessage, socket) => {
    answerOnSocket(socket, 405, 'CONNECT is not supported: preflight-gate is not a proxy');
  });
  answerClientErrorsAsJson(server);
  return server;
}
