import { createServer, type Server, type ServerResponse } from 'node:http';
import { verifySignature } from '../src/signature/verify-signature';

function answer(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * The floor every HTTP ratio is taken against: the least a signed webhook receiver on this runtime
 * can do, on bare node:http. It reads the raw body, verifies its HMAC over exactly those bytes,
 * parses it once with `JSON.parse` and answers `200 {}` (401 for a bad signature, 400 for a body
 * that is not JSON). No validation, no decision, no log: what the service adds over it is its own.
 */
export function createFloorServer(secrets: readonly string[]): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const header = req.headers['x-sb-signature'];
      const body = Buffer.concat(chunks);
      const checked = verifySignature(Array.isArray(header) ? header[0] : header, body, secrets);
      if (!checked.ok) return answer(res, 401, { message: checked.message });
      try {
        JSON.parse(body.toString('utf8'));
      } catch {
        return answer(res, 400, { message: 'the body is not JSON' });
      }
      answer(res, 200, {});
    });
  });
}
