import type { LoadProblem } from '../../policy/compile/load-error';
import { policyKindOf } from '../../policy/loading/policy-kind-of';
import { readPolicyDir } from '../../policy/loading/read-policy-dir';
import { parseYamlSource, type ParsedDocument } from '../../policy/compile/yaml-source';
import { DOCUMENT_SCHEMAS } from '../../policy/compile/document-schema';
import { closest, didYouMean } from '../../policy/compile/near-name';
import { fieldNamesOf, onePerMistake, schemaSuggestion } from '../../policy/compile/schema-suggestion';
import { type LocatedError, toLocatedErrors, validated } from '../../validation/field-errors';
import { validateSuite } from './generated/suite-schema';
import { pathText, type FieldPath } from '../../validation/field-path';
import { missingSuiteFiles } from './missing-suite-files';
import { type SuiteDocument, suiteSchema } from './suite-schema';

type Path = FieldPath;

export interface LoadedSuite {
  file: string;
  /** The suite's `name`, else its file. */
  name: string;
  /** Undefined when the file is not a valid suite: then `problems` says why. */
  doc?: SuiteDocument;
  /**
   * How many cases the file lists under `cases:`, valid or not (what a suite that cannot run leaves
   * untested); null when the file is not valid YAML: how many cases it holds is unknown.
   */
  written: number | null;
  locate(path: Path, at?: 'key' | 'value'): { line: number; col: number };
  problems: LoadProblem[];
}

/** Every field name of the suite schema: what a misspelt key is compared with. */
const FIELD_NAMES: readonly string[] = fieldNamesOf([suiteSchema]);

/** The suite's own kind, the one value `kind:` may have in a `*.test.yaml` file. */
const SUITE_KIND = 'PolicyTestSuite';

/** Whether a document is shaped as a test suite (it has `cases` or `defaults`, which no policy-set document has). */
const suiteShaped = (value: unknown): boolean =>
  value !== null && typeof value === 'object' && ('cases' in value || 'defaults' in value);

/**
 * What a schema error of a suite may have meant, as for policies (schema-suggestion.ts). A `kind`
 * near a policy-set kind (`kind: Polcy`) in a document shaped as a suite is the suite's kind
 * misspelt: it is told the suite's kind; in any other document, that it is a policy in a file
 * named as a suite.
 */
function suiteSuggestion(e: LocatedError, value: unknown): string {
  const suggestion = schemaSuggestion(e, FIELD_NAMES);
  if (suggestion !== '' || pathText(e.path) !== 'kind' || e.badValue === undefined) return suggestion;
  const policyKind = closest(e.badValue, Object.keys(DOCUMENT_SCHEMAS));
  if (policyKind === undefined) return '';
  return suiteShaped(value)
    ? `${didYouMean([SUITE_KIND])} (a *.test.yaml file is a test suite: its kind is ${SUITE_KIND}, or leave kind out)`
    : `${didYouMean([policyKind])} (a ${policyKind} belongs in a file not named *.test.yaml: *.test.yaml files are test suites)`;
}

/** Checks the schema cannot express: regexes compile, each case has one payload and a pinned time. */
function semanticProblems(doc: SuiteDocument): Array<{ path: Path; message: string }> {
  const out: Array<{ path: Path; message: string }> = [];
  const regex = (source: string, path: Path) => {
    try {
      new RegExp(source);
    } catch (err) {
      out.push({ path, message: `not a valid regular expression: ${(err as Error).message}` });
    }
  };
  const d = doc.defaults ?? {};
  if (d.payload !== undefined && d.payloadFile !== undefined)
    out.push({ path: ['defaults'], message: 'give payload or payloadFile, not both' });
  doc.cases.forEach((c, i) => {
    if (c.payload !== undefined && c.payloadFile !== undefined)
      out.push({ path: ['cases', i], message: 'give payload or payloadFile, not both' });
    if (
      c.payload === undefined &&
      c.payloadFile === undefined &&
      d.payload === undefined &&
      d.payloadFile === undefined
    ) {
      out.push({
        path: ['cases', i],
        message: `case "${c.name}" has no payload: give payload or payloadFile (here or in defaults)`,
      });
    }
    if (c.now === undefined && d.now === undefined)
      out.push({
        path: ['cases', i],
        message: `case "${c.name}" has no pinned now (here or in defaults): decisions may depend on time`,
      });
    if (c.expect.message !== undefined) regex(c.expect.message, ['cases', i, 'expect', 'message']);
    (c.expect.modifications ?? []).forEach((m, j) => {
      const at: Path = ['cases', i, 'expect', 'modifications', j];
      if ((m.value === undefined) === (m.valuePattern === undefined))
        out.push({ path: at, message: 'give value or valuePattern (exactly one)' });
      if (m.valuePattern !== undefined) regex(m.valuePattern, [...at, 'valuePattern']);
    });
  });
  const names = new Map<string, number>();
  doc.cases.forEach((c, i) => {
    if (names.has(c.name))
      out.push({
        path: ['cases', i, 'name'],
        message: `duplicate case name "${c.name}" (also cases[${names.get(c.name)}])`,
      });
    else names.set(c.name, i);
  });
  return out;
}

function loadOne(
  parsed: ParsedDocument | undefined,
  file: string,
  problems: LoadProblem[],
  unparsable: boolean,
): LoadedSuite {
  const locate = (path: Path, at: 'key' | 'value' = 'value') => parsed?.locate(path, at) ?? { line: 1, col: 1 };
  const problem = (path: Path, message: string, at: 'key' | 'value' = 'value'): LoadProblem => ({
    file,
    ...locate(path, at),
    path: pathText(path),
    message,
    severity: 'error',
  });
  const cases = (parsed?.value as { cases?: unknown } | undefined)?.cases;
  const written = parsed === undefined && unparsable ? null : Array.isArray(cases) ? cases.length : 0;
  const suite: LoadedSuite = { file, name: file, locate, problems, written };
  if (!parsed) {
    if (!problems.some((p) => p.severity === 'error')) problems.push(problem([], 'empty test suite: it needs `cases`'));
    return suite;
  }
  if (!validateSuite(parsed.value)) {
    const errors = onePerMistake(
      toLocatedErrors(validateSuite.errors, validated(validateSuite, parsed.value)),
      FIELD_NAMES,
    );
    for (const e of errors)
      problems.push(problem(e.path, `${e.message}${suiteSuggestion(e, parsed.value)}`, e.atKey ? 'key' : 'value'));
    return suite;
  }
  const doc = parsed.value;
  for (const p of [...semanticProblems(doc), ...missingSuiteFiles(file, doc)])
    problems.push(problem(p.path, p.message));
  return { ...suite, name: doc.name ?? file, doc };
}

/** Every `*.test.yaml` below `dir`, parsed and checked; problems carry file:line:col. */
export function loadSuites(dir: string): LoadedSuite[] {
  // A suite-named file holding a policy is the loader's one error (misplaced-policies.ts), not a broken suite.
  return readPolicyDir(dir, { tests: true })
    .filter((source) => policyKindOf(source) === undefined)
    .map((source) => {
      const { documents, problems } = parseYamlSource(source);
      if (documents.length > 1) {
        problems.push({
          file: source.file,
          line: 1,
          col: 1,
          path: '',
          message: 'a test suite file holds one YAML document (found several)',
          severity: 'error',
        });
      }
      // No document but errors: the YAML could not be parsed (an empty file has no errors).
      const unparsable = problems.some((p) => p.severity === 'error');
      return loadOne(documents[0], source.file, problems, unparsable);
    });
}
