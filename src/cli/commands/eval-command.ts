import { randomUUID } from 'node:crypto';
import { describeFieldErrors, validatePreflightPayload } from '../../payload/validate-payload';
import { evaluate } from '../../policy/evaluate';
import { formatProblem } from '../../policy/load-error';
import { loadPolicyDir } from '../../policy/load-policy-dir';
import type { StateSnapshot } from '../../policy/types';
import { parseJson, parseNow, policyDirArg, readFileBytes, readStdin } from '../read-input';
import { EXIT, UsageError } from '../usage-error';
import { decisionText } from './explain-text';

export interface EvalOptions {
  payload: string;
  now?: string;
  explain?: boolean;
  dir?: string;
  state?: string;
  format: 'text' | 'json';
  exitCode?: boolean;
}

/**
 * `preflight-gate eval --payload run.json`: the answer the service would give to this payload
 * with the policies of `--dir`. Exit 0 when evaluated; with --exit-code, exit 1 on a denial.
 */
export async function evalCommand(opts: EvalOptions, env: NodeJS.ProcessEnv, write: (s: string) => void): Promise<number> {
  const dir = policyDirArg(opts.dir, env);
  const now = parseNow(opts.now, () => new Date());
  const bytes = opts.payload === '-' ? await readStdin('payload') : readFileBytes(opts.payload, 'payload');
  const checked = validatePreflightPayload(parseJson(bytes, opts.payload, 'payload'));
  if (!checked.ok) throw new UsageError(`${opts.payload}: invalid preflight payload (the service would answer 400): ${describeFieldErrors(checked.errors)}`);
  let state: StateSnapshot | undefined;
  if (opts.state !== undefined) {
    const parsed = parseJson(readFileBytes(opts.state, 'state file'), opts.state, 'state file');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`state file ${opts.state} must hold a JSON object of state facts`);
    state = parsed as StateSnapshot;
  }
  const loaded = loadPolicyDir(dir, now);
  if (!loaded.ok) {
    const errors = loaded.problems.filter((p) => p.severity === 'error').map(formatProblem);
    throw new UsageError(`the policy set in ${dir} is invalid, so nothing can be evaluated (the service would not start):\n${errors.join('\n')}`);
  }
  const decision = evaluate(loaded.bundle, checked.payload, { now, decisionId: randomUUID(), state, fullScan: opts.explain === true });
  if (opts.format === 'json') {
    const body = decision.allowed ? { message: decision.message, modifications: decision.modifications } : { message: decision.message };
    write(`${JSON.stringify({ status: decision.allowed ? 200 : 403, allowed: decision.allowed, body, ...(opts.explain ? { explanation: decision } : {}) }, null, 2)}\n`);
  } else {
    write(decisionText(decision, opts.explain === true));
  }
  return opts.exitCode && !decision.allowed ? EXIT.failed : EXIT.ok;
}
