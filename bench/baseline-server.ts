import { createBaselineApp } from './baseline-app';

/** Entry of the baseline process: PORT, HOST, WEBHOOK_SECRET and BODY_LIMIT (default 1mb) from the environment. */
createBaselineApp([process.env.WEBHOOK_SECRET ?? ''], process.env.BODY_LIMIT).listen(
  Number(process.env.PORT),
  process.env.HOST ?? '127.0.0.1',
);
// Exit normally on SIGTERM, so `--cpu-prof` (npm run bench -- --profile) can write its profile.
process.once('SIGTERM', () => process.exit(0));
