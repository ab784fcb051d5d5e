import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECRET } from './http-stage';
import { payloadVariants } from './payload-variants';
import { replayStage } from './replay-bench';
import { usableRuleKinds } from '../test/helpers/policy-sets/usable-rule-kinds';

/**
 * The replay stage alone (`node .bench/build/bench/replay-main.js [records ...]`, default 20000
 * 100000): writes each archive against 1,000 generated policies and replays it as `npm run bench`
 * does, printing each size's figures as JSON lines. For measuring replay without the whole bench.
 */
async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number);
  const work = mkdtempSync(join(tmpdir(), 'preflight-replay-bench-'));
  const variants = payloadVariants(SECRET);
  for (const records of sizes.length > 0 ? sizes : [20_000, 100_000]) {
    const figures = await replayStage(
      work,
      records,
      1000,
      usableRuleKinds().usable,
      variants,
      join(__dirname, 'replay-child.js'),
    );
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  }
  process.stderr.write(`replay-main: archives and policies in ${work}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`replay-main: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(2);
});
