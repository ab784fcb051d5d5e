import { loadPolicyDir } from '../src/policy/loading/load-policy-dir';
import { groupRuleSet } from './group-rule-set';
import { measureLargeRunDecisions, measureLargeRunParse } from './large-run-measures';
import { GROUP_RULE_SET } from './large-run-stage';

/**
 * One measurement of the big-run stage in a process of its own, its figures as JSON on stdout:
 * `node large-run-child.js parse <sizes> <seconds>` (the strict parse against its floor, no policy
 * set loaded) or `node large-run-child.js decide <policy dir | perGroup> <sizes> <seconds>` (that
 * set's decisions alone). Sizes are comma-separated target counts.
 */
async function main(): Promise<void> {
  const [what, ...rest] = process.argv.slice(2);
  const [sizesArg, secondsArg] = rest.slice(-2);
  const sizes = (sizesArg ?? '').split(',').map(Number);
  const seconds = Number(secondsArg);
  if (sizes.some((s) => !Number.isInteger(s) || s <= 0) || !(seconds > 0))
    throw new Error(`usage: large-run-child parse|decide [<policy dir>|${GROUP_RULE_SET}] <sizes> <seconds>`);
  if (what === 'parse' && rest.length === 2) {
    process.stdout.write(`${JSON.stringify({ parse: measureLargeRunParse(sizes, seconds) })}\n`);
    return;
  }
  if (what !== 'decide' || rest.length !== 3)
    throw new Error(`usage: large-run-child parse|decide [<policy dir>|${GROUP_RULE_SET}] <sizes> <seconds>`);
  const bundle = rest[0] === GROUP_RULE_SET ? groupRuleSet().bundle : loadedBundle(rest[0]);
  const runs = await measureLargeRunDecisions(bundle, sizes, seconds);
  process.stdout.write(`${JSON.stringify({ policies: bundle.policies.length, decide: runs })}\n`);
}

function loadedBundle(dir: string) {
  const loaded = loadPolicyDir(dir);
  if (!loaded.ok) throw new Error(`${dir} does not load: ${loaded.problems[0]?.message}`);
  return loaded.bundle;
}

main().catch((err: unknown) => {
  // The message last: the benchmark shows the end of a failed child's stderr.
  const message = err instanceof Error ? `${err.stack}\nlarge-run-child: ${err.message}` : String(err);
  process.stderr.write(`${message}\n`);
  process.exit(2);
});
