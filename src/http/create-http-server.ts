import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { answerClientErrorsAsJson, answerOnSocket } from './client-error-json';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface HttpServerOptions {
  /** Headers for an answer made before any route ran (the decision id of POST /preflight). */
  headersFor?: (method: string, target: string) => OutgoingHttpHeaders;
}

/**
 * The node:http server of the service, around `app`. Every answer Node's HTTP layer would make
 * itself is JSON with a `message` here: CONNECT (405) and requests the parser rejects
 * (client-error-json.ts). The app refuses bad framing itself (request-framing.ts: a missing Host,
 * an `Expect` other than 100-continue, a Transfer-Encoding, a declared length over BODY_LIMIT); `100 Continue` is sent by the body reader when it starts reading, so a
 * body refused before it is read (413, 503) never gets one.
 */
export function createHttpServer(app: Handler, opts: HttpServerOptions = {}): Server {
  // requireHostHeader: false so that the missing Host gets our JSON answer, not Node's empty 400.
  const server = createServer({ requireHostHeader: false }, app);
  // The app answers both: an unknown expectation is a framing problem (417), 100-continue is for the body reader.
  const toApp = (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res);
  server.on('checkContinue', toApp);
  server.on('checkExpectation', toApp);
  server.on('connect', (_req: IncomingMessage, socket) => {
    answerOnSocket(socket, 405, 'CONNECT is not supported: preflight-gate is not a proxy');
  });
  answerClientErrorsAsJson(server, { headersFor: opts.headersFor });
  return server;
}
