import express, { type Express } from 'express';
import { verifySignature } from '../src/signature/verify-signature';

/**
 * The baseline: the smallest Express app that does what any signed webhook receiver must, reading
 * the raw body, verifying its HMAC and answering 200 {}.
 */
export function createBaselineApp(secrets: readonly string[], limit = '1mb'): Express {
  const app = express();
  app.post('/preflight', express.raw({ type: () => true, limit }), (req, res) => {
    const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const checked = verifySignature(req.header('x-sb-signature'), body, secrets);
    if (!checked.ok) res.status(401).json({ message: checked.message });
    else res.status(200).json({});
  });
  return app;
}
