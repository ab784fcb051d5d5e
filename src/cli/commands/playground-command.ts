import { createServer, type Server } from 'node:http';
import { PAGE_HEADERS, pageFileFor, readPlaygroundPage } from '../../playground/playground-page';
import { BadInputError } from '../../common/bad-input-error';

/** Where `preflight-gate playground` listens unless --port says otherwise (eval --share links point here). */
export const PLAYGROUND_PORT = 8090;
export const PLAYGROUND_HOST = '127.0.0.1';

export interface PlaygroundOptions {
  port?: string;
}

/** The port of --port: 0 (any free port) to 65535. */
export function playgroundPort(value: string | undefined): number {
  if (value === undefined) return PLAYGROUND_PORT;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new BadInputError(`--port must be a port number (0-65535), got "${value}"`);
  return port;
}

/**
 * `preflight-gate playground [--port N]`: serves the playground page on 127.0.0.1 only (the page
 * decides in the browser; this server only hands out three static files) and prints its URL.
 * Runs until interrupted.
 */
export async function playgroundCommand(opts: PlaygroundOptions, write: (s: string) => void): Promise<Server> {
  const port = playgroundPort(opts.port);
  const files = readPlaygroundPage();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const file = req.method === 'GET' || req.method === 'HEAD' ? pageFileFor(files, path.slice(1)) : undefined;
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the playground is at /\n');
      return;
    }
    res.writeHead(200, { ...PAGE_HEADERS, 'content-type': file.contentType, 'content-length': file.body.length });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new BadInputError(
          `cannot listen on ${PLAYGROUND_HOST}:${port}: ${err.code ?? err.message} (choose another --port)`,
        ),
      ),
    );
    server.listen(port, PLAYGROUND_HOST, resolve);
  });
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  write(`preflight-gate playground: http://${PLAYGROUND_HOST}:${actual}/ (Ctrl-C stops it)\n`);
  return server;
}
