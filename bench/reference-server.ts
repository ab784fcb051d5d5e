import { createServer } from 'node:http';
import { verifySignature } from '../src/signature/verify-signature';

/**
 * Not a target, a reference: the same work as the baseline (raw body, HMAC, 200 {}) on plain
 * node:http, without Express. The baseline the issue names is Express; preflight-gate answers
 * POST /preflight on node:http, so the report also shows how far it is from this floor.
 */
const secrets = [process.env.WEBHOOK_SECRET ?? ''];
createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const header = req.headers['x-sb-signature'];
    const checked = verifySignature(Array.isArray(header) ? header[0] : header, Buffer.concat(chunks), secrets);
    const text = JSON.stringify(checked.ok ? {} : { message: checked.message });
    res.writeHead(checked.ok ? 200 : 401, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
    });
    res.end(text);
  });
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
// Exit normally on SIGTERM, so `--cpu-prof` (npm run bench -- --profile) can write its profile.
process.once('SIGTERM', () => process.exit(0));
