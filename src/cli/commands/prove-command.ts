import { proveProperty, COVERAGE, type PropertyResult } from '../../prove/analysis';
import { formatProblem } from '../../policy/compile/load-error';
import { readProperties } from '../../prove/property-file';
import { readPolicySet } from '../../prove/policy-set';
import { githubCommand } from '../format-problems';
import { parseNow, policyDirArg } from '../read-input';
import { EXIT } from '../exit-codes';
import { BadInputError } from '../../common/bad-input-error';

export const PROVE_FORMATS = ['text', 'json', 'markdown', 'github'] as const;

export interface ProveCommandOptions {
  format: (typeof PROVE_FORMATS)[number];
  strict?: boolean;
  now?: string;
}

function proveText(results: PropertyResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${r.file}: ${r.property}: ${r.status}${r.reason ? ` (${r.reason})` : ''}`);
    if (r.witness) {
      lines.push(`  ${r.witness.class}`);
      lines.push(`  answer: ${r.witness.answer?.allowed ? 'allowed' : 'denied'} (${r.witness.answer?.message})`);
      lines.push(`  witness: now ${r.witness.now}, payload ${JSON.stringify(r.witness.payload)}`);
      lines.push(`           facts ${JSON.stringify(r.witness.facts)}`);
    }
    if (r.status === 'proven' && r.relaxed.length > 0)
      lines.push(`  holds whatever these rules beyond the analysis answer: ${r.relaxed.join('; ')}`);
  }
  if (results.length === 0) lines.push('no properties (*.property.yaml) found');
  else lines.push(`proven means: for ${COVERAGE} (docs/prove.md)`);
  return `${lines.join('\n')}\n`;
}

function proveMarkdown(results: PropertyResult[]): string {
  const count = (status: PropertyResult['status']) => results.filter((r) => r.status === status).length;
  const headline =
    results.length === 0
      ? 'no properties (*.property.yaml) found'
      : `${count('proven')} proven, ${count('counterexample')} counterexample(s), ${count('unknown')} unknown`;
  const out = [`### preflight-gate prove: ${headline}`, ''];
  if (results.length > 0) out.push('| property | answer | why |', '| --- | --- | --- |');
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  for (const r of results)
    out.push(`| ${r.property} | **${r.status}** | ${cell(r.reason ?? r.witness?.class ?? '')} |`);
  const broken = results.filter((r) => r.witness);
  if (broken.length > 0) {
    out.push('', '<details><summary>Counterexamples (payload, now, facts)</summary>', '');
    for (const r of broken)
      out.push(
        '```json',
        JSON.stringify({
          property: r.property,
          payload: r.witness?.payload,
          now: r.witness?.now,
          facts: r.witness?.facts,
        }),
        '```',
      );
    out.push('</details>');
  }
  out.push('', `_proven: for ${COVERAGE} (docs/prove.md)._`);
  return `${out.join('\n')}\n`;
}

/**
 * GitHub annotations at each property's document: a counterexample an error (with its witness), an
 * unknown a warning (an error with --strict, which fails on it); a proven property a plain line.
 */
function proveGithub(results: PropertyResult[], strict: boolean): string {
  const lines: string[] = [];
  for (const r of results) {
    const at = { file: r.file, line: r.line, col: 1 };
    if (r.status === 'counterexample' && r.witness) {
      const w = r.witness;
      const message = `counterexample: ${w.class}\nthe set allows it: ${w.answer?.message}\nwitness: now ${w.now}, payload ${JSON.stringify(w.payload)}, facts ${JSON.stringify(w.facts)}`;
      lines.push(githubCommand('error', 'preflight-gate prove: counterexample', message, at));
    } else if (r.status === 'unknown')
      lines.push(
        githubCommand(
          strict ? 'error' : 'warning',
          'preflight-gate prove: unknown',
          `property ${r.property}: unknown: ${r.reason}`,
          at,
        ),
      );
    else lines.push(`${r.file}: ${r.property}: proven`);
  }
  if (results.length === 0) lines.push('no properties (*.property.yaml) found');
  return `${lines.join('\n')}\n`;
}

/**
 * `preflight-gate prove [dir]`: each property of the set (*.property.yaml) proven for every run,
 * broken by a counterexample the engine allows, or unknown with the reason. Exit 1 on a
 * counterexample (and with --strict on unknown), 2 on a usage error.
 */
export function proveCommand(
  dirArg: string | undefined,
  opts: ProveCommandOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
): number {
  const dir = policyDirArg(dirArg, env);
  const now = parseNow(opts.now, () => new Date());
  const set = readPolicySet(dir, now, env);
  const { properties, problems } = readProperties(dir, set.aliases, now);
  if (problems.length > 0)
    throw new BadInputError(
      `the properties in ${dir} are invalid (preflight-gate validate shows them too):\n${problems.map(formatProblem).join('\n')}`,
    );
  const results = properties.map((p) => proveProperty(set, p, now));
  if (opts.format === 'json') write(`${JSON.stringify({ coverage: COVERAGE, properties: results }, null, 2)}\n`);
  else if (opts.format === 'github') write(proveGithub(results, opts.strict === true));
  else write(opts.format === 'markdown' ? proveMarkdown(results) : proveText(results));
  if (results.some((r) => r.status === 'counterexample')) return EXIT.failed;
  if (opts.strict && results.some((r) => r.status === 'unknown')) return EXIT.failed;
  return EXIT.ok;
}
