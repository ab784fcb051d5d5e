import { createFloorServer } from './floor-app';

/** Entry of the floor process (floor-app.ts): PORT, HOST and WEBHOOK_SECRET from the environment. */
createFloorServer([process.env.WEBHOOK_SECRET ?? '']).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
// Exit normally on SIGTERM, so `--cpu-prof` (npm run bench -- --profile) can write its profile.
process.once('SIGTERM', () => process.exit(0));
