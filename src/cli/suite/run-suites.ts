import { doorFacts } from '../../policy/facts/facts';
import type { PolicyBundle } from '../../policy/core/compiled';
import type { Decision } from '../../policy/core/decision';
import { decide } from '../../policy/engine/decide';
import { givenFacts } from '../../policy/facts/quiet-facts';
import { formatProblem, type LoadProblem } from '../../policy/compile/load-error';
import { didYouMean, meantNames } from '../../policy/compile/near-name';
import { checkCase, checkJudgement } from './check-case';
import { guardView } from '../../guard/guard-view';
import { judgeRunningRun } from '../../guard/judge-running-run';
import type { LoadedSuite } from './load-suites';
import { CaseInputError, prepareCase, type FileCache } from './prepare-case';
import type { SuiteDocument } from './suite-schema';
import { pathText, type FieldPath } from '../../validation/field-path';

/** Decisions in test runs carry this id, so messages and modifications are reproducible. */
export const TEST_DECISION_ID = 'test';

export interface CaseReport {
  name: string;
  line: number;
  col: number;
  ok: boolean;
  failures: string[];
  /** The decision's message, when the case ran. */
  message?: string;
  /** The case could not run as written (its payload, state or a patch path): a usage error. */
  cannotRun?: true;
  /** How long preparing, deciding and checking the case took (JUnit `time`). */
  seconds: number;
}

export interface SuiteReport {
  file: string;
  name: string;
  ok: boolean;
  problems: LoadProblem[];
  cases: CaseReport[];
  /** Why none of its cases ran (its errors, an invalid policy set); absent when they ran. A suite that could not run fails. */
  notRunReason?: string;
  /**
   * The cases left untested because the suite could not run (0 when it ran). A suite whose file is
   * not valid YAML (`written` null) counts none here: how many it holds is unknown.
   */
  notRun: number;
  /** How many cases the file lists; null when the file is not valid YAML (then how many is unknown). */
  written: number | null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The report of a suite none of whose cases ran: why, and its cases counted as not run (none when unknown). */
export function couldNotRun(
  base: Omit<SuiteReport, 'notRun' | 'notRunReason' | 'written'>,
  written: number | null,
  reason: string,
): SuiteReport {
  return { ...base, notRunReason: reason, notRun: written ?? 0, written };
}

/** Why a suite with errors ran no case: its own errors, listed under it. */
export function suiteErrorsText(problems: readonly LoadProblem[]): string {
  const errors = problems.filter((p) => p.severity === 'error').length;
  return `the suite file has ${plural(errors, 'error')} (below)`;
}

/**
 * Names in `expect` that are not policies of the bundle: a misspelt name must not pass quietly. Each
 * gets the did-you-mean of every other misspelt name (near-name.ts): the closest policy of the set.
 */
function unknownPolicies(suite: LoadedSuite, doc: SuiteDocument, bundle: PolicyBundle): LoadProblem[] {
  const names = bundle.policies.map((p) => p.name);
  const known = new Set(names);
  // A large set is named by its first policies: the did-you-mean names the one meant.
  const knownText =
    names.length > 20 ? `${names.slice(0, 20).join(', ')} and ${names.length - 20} more` : names.join(', ');
  const out: LoadProblem[] = [];
  const flag = (name: string, path: FieldPath) => {
    if (known.has(name)) return;
    out.push({
      file: suite.file,
      ...suite.locate(path),
      path: pathText(path),
      message: `policy "${name}" does not exist in this policy set${didYouMean(meantNames(name, names))} (known: ${knownText})`,
      severity: 'error',
    });
  };
  doc.cases.forEach((c, i) => {
    for (const key of ['denied', 'warned', 'audited'] as const)
      (c.expect[key] ?? []).forEach((n, j) => flag(n, ['cases', i, 'expect', key, j]));
    for (const n of Object.keys(c.expect.results ?? {})) flag(n, ['cases', i, 'expect', 'results', n]);
  });
  return out;
}

/**
 * Why a case cannot run, as a problem of its suite: a bad edit where it is written
 * (`cases[2].patch.execution.enviroment`), any other input (an unreadable payload or signals file,
 * malformed state) at the case.
 */
function cannotRunProblem(suite: LoadedSuite, caseIndex: number, err: unknown): LoadProblem {
  const edit = err instanceof CaseInputError;
  const path: FieldPath = edit
    ? [...(err.origin === 'case' ? ['cases', caseIndex] : ['defaults']), ...err.path]
    : ['cases', caseIndex];
  const at = edit ? suite.locate(path, 'key') : suite.locate(path);
  return { file: suite.file, ...at, path: pathText(path), message: (err as Error).message, severity: 'error' };
}

/** The case's failure line: a bad edit with where it is written (`file:line:col cases[2].patch...: ...`), else the reason. */
const cannotRunText = (p: LoadProblem, edit: boolean) => `cannot run: ${edit ? formatProblem(p) : p.message}`;

/** Told every decision a case made and the bundle it was made on (test --coverage reads them); never writes to either. */
export type ObserveDecision = (decided: PolicyBundle, decision: Decision) => void;

const ignore: ObserveDecision = () => undefined;

function runSuite(
  suite: LoadedSuite,
  bundle: PolicyBundle,
  cache: FileCache,
  guarded: () => PolicyBundle,
  observe: ObserveDecision,
  cannotRun: (problem: LoadProblem) => void,
): SuiteReport {
  const problems = [...suite.problems];
  const doc = suite.doc;
  const cases: CaseReport[] = [];
  if (doc && !problems.some((p) => p.severity === 'error')) {
    problems.push(...unknownPolicies(suite, doc, bundle));
    doc.cases.forEach((c, i) => {
      const at = suite.locate(['cases', i]);
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        const prepared = prepareCase(suite.file, doc.defaults, c, cache);
        // Without state: the facts of a freshly started service, as `eval` decides without --state;
        // without signals, signal rules cannot decide, as `eval` without --signals; without
        // environment names, none (as without the Platform API), as `eval` without --environments.
        if (c.whileRunning) {
          const view = guarded();
          const judged = judgeRunningRun(
            view,
            prepared.payload,
            givenFacts(view.needs, prepared),
            prepared.now,
            TEST_DECISION_ID,
          );
          observe(view, judged.decision);
          const failures = checkJudgement(c.expect, judged);
          cases.push({
            name: c.name,
            ...at,
            ok: failures.length === 0,
            failures,
            message: judged.stop ? `stopped: ${judged.decision.message}` : 'keeps running',
            seconds: seconds(),
          });
          return;
        }
        const facts = doorFacts(givenFacts(bundle.needs, prepared));
        const decision = decide(bundle, prepared.payload, facts, prepared.now, {
          decisionId: TEST_DECISION_ID,
          fullScan: true,
        });
        observe(bundle, decision);
        const failures = checkCase(c.expect, decision);
        cases.push({
          name: c.name,
          ...at,
          ok: failures.length === 0,
          failures,
          message: decision.message,
          seconds: seconds(),
        });
      } catch (err) {
        const problem = cannotRunProblem(suite, i, err);
        cannotRun(problem);
        cases.push({
          name: c.name,
          ...at,
          ok: false,
          failures: [cannotRunText(problem, err instanceof CaseInputError)],
          cannotRun: true,
          seconds: seconds(),
        });
      }
    });
  }
  if (cases.length === 0 && !problems.some((p) => p.severity === 'error')) {
    problems.push({
      file: suite.file,
      line: 1,
      col: 1,
      path: '',
      message: 'no case ran: a suite without cases proves nothing',
      severity: 'error',
    });
  }
  const ok = cases.length > 0 && cases.every((c) => c.ok) && !problems.some((p) => p.severity === 'error');
  const base = { file: suite.file, name: suite.name, ok, problems, cases };
  return cases.length === 0
    ? couldNotRun(base, suite.written, suiteErrorsText(problems))
    : { ...base, notRun: 0, written: suite.written };
}

/**
 * Runs every suite against the bundle (the served one: with the built-in policies). Pure apart from
 * reading payload files. `cannotRun` is told why each case that cannot run as written cannot (validate reports it).
 */
export function runSuites(
  suites: readonly LoadedSuite[],
  bundle: PolicyBundle,
  observe: ObserveDecision = ignore,
  cannotRun: (problem: LoadProblem) => void = () => undefined,
): SuiteReport[] {
  const cache: FileCache = new Map();
  let view: PolicyBundle | undefined;
  const guarded = () => (view ??= guardView(bundle));
  return suites.map((s) => runSuite(s, bundle, cache, guarded, observe, cannotRun));
}
