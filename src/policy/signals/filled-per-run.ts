import type { Violation } from '../core/decision';
import { missingValueText, type RunValues, type SignalPlaceholder } from './placeholder-text';

/** A text a run filled in, with the run that filled it. */
export interface FilledText {
  text: string;
  run: RunValues;
}

/**
 * What `fill` makes of each run's values, in the runs' order, each distinct text once (the first
 * run to fill it in). A run that lacks a value the text needs is the "cannot decide" violation
 * saying so instead; `needs` says what needs it ("the query needs").
 */
export function filledPerRun(
  runs: readonly RunValues[],
  fill: (run: RunValues) => { text: string } | { missing: SignalPlaceholder },
  needs: string,
): Array<FilledText | Violation> {
  const out: Array<FilledText | Violation> = [];
  const seen = new Set<string>();
  for (const run of runs) {
    const filled = fill(run);
    if ('missing' in filled)
      out.push({
        reason: `cannot decide: ${needs} {{${filled.missing}}} but ${missingValueText(filled.missing, run)}`,
        status: 'undecidable',
      });
    else if (!seen.has(filled.text)) {
      seen.add(filled.text);
      out.push({ text: filled.text, run });
    }
  }
  return out;
}
