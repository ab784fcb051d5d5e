import { diffSets, type DiffResult, type Witness } from '../../prove/analysis';
import { type PolicySet, readPolicySet, SetNotLoadedError } from '../../prove/policy-set';
import { ruleLocation } from '../../prove/rule-location';
import { githubAnnotation, githubCommand } from '../format-problems';
import { parseNow } from '../read-input';
import { EXIT } from '../exit-codes';

export const DIFF_FORMATS = ['text', 'json', 'markdown', 'github'] as const;
export const DIFF_FAIL_ON = ['newly-allowed', 'any-change'] as const;

export interface DiffCommandOptions {
  format: (typeof DIFF_FORMATS)[number];
  failOn?: (typeof DIFF_FAIL_ON)[number];
  /** The start of the time horizon: no run starts earlier; default: now. */
  now?: string;
  /** A change beyond the analysis (unknown) fails too: no witness was looked for there. */
  strict?: boolean;
}

const answer = (a: Witness['base']) => (a ? `${a.allowed ? 'allowed' : 'denied'} (${a.message})` : '-');

export function diffText(r: DiffResult): string {
  const lines: string[] = [];
  if (r.witnesses.length === 0)
    lines.push(
      r.unknown.length === 0 ? 'no run would be decided differently' : 'no run found that would be decided differently',
    );
  for (const w of r.witnesses) {
    lines.push(`${w.kind}: ${w.class}`);
    lines.push(`  base:     ${answer(w.base)}`);
    lines.push(`  proposed: ${answer(w.proposed)}`);
    lines.push(`  witness:  now ${w.now}, payload ${JSON.stringify(w.payload)}`);
    lines.push(`            facts ${JSON.stringify(w.facts)}`);
  }
  for (const u of r.unknown) lines.push(`unknown: ${u}`);
  lines.push(`covers ${r.coverage} (time ${r.horizon.from} to ${r.horizon.to}); ${r.decisions} decisions`);
  return `${lines.join('\n')}\n`;
}

export function diffMarkdown(r: DiffResult): string {
  const out = ['### preflight-gate diff: what this change could allow, for every run', ''];
  const allowed = r.witnesses.filter((w) => w.kind === 'newly-allowed').length;
  const denied = r.witnesses.length - allowed;
  if (r.witnesses.length === 0)
    out.push(
      r.unknown.length === 0
        ? '**No run would be decided differently.**'
        : 'No run found that would be decided differently (see unknown below).',
    );
  else out.push(`**${allowed} class(es) newly allowed, ${denied} newly denied.**`);
  out.push('');
  if (r.witnesses.length > 0) {
    out.push('| change | class | base | proposed |', '| --- | --- | --- | --- |');
    const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
    for (const w of r.witnesses)
      out.push(`| ${w.kind} | ${cell(w.class)} | ${cell(answer(w.base))} | ${cell(answer(w.proposed))} |`);
    out.push('');
    out.push('<details><summary>Witnesses (payload, now, facts)</summary>', '');
    for (const w of r.witnesses)
      out.push('```json', JSON.stringify({ kind: w.kind, payload: w.payload, now: w.now, facts: w.facts }), '```');
    out.push('</details>', '');
  }
  for (const u of r.unknown) out.push(`- unknown: ${u}`);
  out.push('', `_Covers ${r.coverage}; time ${r.horizon.from} to ${r.horizon.to} (docs/prove.md)._`);
  return `${out.join('\n')}\n`;
}

/** Whether a witness fails the check `--fail-on` asks for. */
const fails = (w: Witness, failOn: DiffCommandOptions['failOn']) =>
  failOn === 'any-change' || (failOn === 'newly-allowed' && w.kind === 'newly-allowed');

/**
 * GitHub annotations: one per witness, at the changed field of the rule in the proposed set (where
 * the reviewer reads it; the exception when only an exception waiving its policy was added or changed, the rule's entry when only aliases changed; none when the
 * proposed set no longer has its policy), an error when it fails
 * `--fail-on`, else a warning; a warning per unknown (an error with --strict), at the changed rule
 * beyond the analysis where it is about one; then the text summary's last line.
 */
export function diffGithub(
  r: DiffResult,
  sets: { base?: PolicySet; proposed: PolicySet },
  failOn: DiffCommandOptions['failOn'],
  strict = false,
): string {
  const lines: string[] = [];
  for (const w of r.witnesses) {
    const at = w.rule ? ruleLocation(sets.proposed, w.rule, sets.base) : undefined;
    const message = `${w.kind}: ${w.class}\nbase: ${answer(w.base)}\nproposed: ${answer(w.proposed)}\nwitness: now ${w.now}, payload ${JSON.stringify(w.payload)}, facts ${JSON.stringify(w.facts)}`;
    lines.push(githubCommand(fails(w, failOn) ? 'error' : 'warning', `preflight-gate diff: ${w.kind}`, message, at));
  }
  for (const u of r.unknown) {
    // At the changed rule beyond the analysis, where the unknown is about one.
    const rule = r.unknownRules.get(u);
    const at = rule ? ruleLocation(sets.proposed, rule, sets.base) : undefined;
    lines.push(githubCommand(strict ? 'error' : 'warning', 'preflight-gate diff: unknown', u, at));
  }
  const allowed = r.witnesses.filter((w) => w.kind === 'newly-allowed').length;
  lines.push(
    r.witnesses.length === 0
      ? diffText(r).split('\n')[0]
      : `${allowed} class(es) newly allowed, ${r.witnesses.length - allowed} newly denied`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * `preflight-gate diff <base-dir> <proposed-dir>`: every class of runs the two sets decide
 * differently, each with a witness both sets decided (docs/prove.md). Exit 1 on a --fail-on hit,
 * and with --strict on anything unknown.
 */
export function diffCommand(
  baseDir: string,
  proposedDir: string,
  opts: DiffCommandOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
): number {
  const now = parseNow(opts.now, () => new Date());
  const read = (dir: string, side: 'base' | 'proposed') => {
    try {
      return readPolicySet(dir, now, env);
    } catch (err) {
      // In a pull request: each problem an annotation on its file and line, then the usage error.
      if (opts.format === 'github' && err instanceof SetNotLoadedError)
        write(
          `${err.problems
            .filter((p) => p.severity === 'error')
            .map((p) => githubAnnotation(p, `preflight-gate diff: the ${side} set does not load`))
            .join('\n')}\n`,
        );
      throw err;
    }
  };
  const base = read(baseDir, 'base');
  const proposed = read(proposedDir, 'proposed');
  const result = diffSets(base, proposed, now);
  if (opts.format === 'json') {
    const { witnesses, unknown, changedRules, decisions, coverage, horizon } = result;
    write(
      `${JSON.stringify({ identical: witnesses.length === 0 && unknown.length === 0, witnesses, unknown, changedRules, coverage, horizon, decisions }, null, 2)}\n`,
    );
  } else if (opts.format === 'github') write(diffGithub(result, { base, proposed }, opts.failOn, opts.strict === true));
  else write(opts.format === 'markdown' ? diffMarkdown(result) : diffText(result));
  if (result.witnesses.some((w) => fails(w, opts.failOn))) return EXIT.failed;
  return opts.strict && result.unknown.length > 0 ? EXIT.failed : EXIT.ok;
}
