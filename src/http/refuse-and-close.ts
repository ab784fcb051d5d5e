import type { ServerResponse } from 'node:http';
import { errorBody } from './error-handler';
import type { HttpError } from './http-error';
import { sendJson } from './send-json';

/** An error answer that also ends the connection: what follows the request on it cannot be trusted. */
export function refuseAndClose(res: ServerResponse, error: HttpError): void {
  res.setHeader('Connection', 'close');
  sendJson(res, error.status, errorBody(error));
}
