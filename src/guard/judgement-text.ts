import type { RunJudgement } from './judge-running-run';

/** `eval --while-running` in text: stopped or not, by which policy and why, then what is only reported. */
export function judgementText(j: RunJudgement): string {
  const lines = [j.stop ? 'STOPPED while running' : 'KEEPS RUNNING'];
  for (const f of j.findings) {
    const what =
      f.action === 'stop'
        ? 'stops it'
        : f.cannotJudge
          ? 'cannot judge (reported, the run goes on)'
          : `would stop it (mode ${f.mode}: reported only)`;
    lines.push(`  ${f.policy}: ${what}: ${f.reason}`);
  }
  if (j.findings.length === 0) lines.push('  every guarded policy still holds');
  return `${lines.join('\n')}\n`;
}

/** `eval --while-running --format json`: the judgement as data. */
export function judgementJson(j: RunJudgement, explain: boolean): object {
  return { whileRunning: true, stopped: j.stop, findings: j.findings, ...(explain ? { explanation: j.decision } : {}) };
}
