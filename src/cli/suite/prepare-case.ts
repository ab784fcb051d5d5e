import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parseStrictJson } from '../../payload/parse-strict-json';
import { describeFieldErrors, validatePreflightPayload } from '../../payload/validate-payload';
import type { EnvironmentFacts } from '../../policy/facts/environment-facts';
import { describeFactErrors, readEnvironmentFacts, readStateFacts, readTeamFacts } from '../../policy/facts/read-facts';
import type { TeamFacts } from '../../policy/facts/team-facts';
import type { StateFacts } from '../../policy/facts/state-facts';
import type { PreflightPayload } from '../../policy/core/decision';
import type { SignalFacts } from '../../policy/facts/signal-facts';
import { validateSignalFacts } from '../../policy/facts/validate-signal-facts';
import type { FieldPath } from '../../validation/field-path';
import { applyPatch, PatchError } from './payload-patch';
import type { PayloadSource, SuiteCase } from './suite-schema';

export interface PreparedCase {
  payload: PreflightPayload;
  now: Date;
  /** The case's state facts (over the defaults'), checked; undefined when neither gives any. */
  state?: StateFacts;
  /** The case's environment names (over the defaults'), checked; undefined when neither gives any. */
  environments?: EnvironmentFacts;
  /** The case's team members (over the defaults'), checked; undefined when neither gives any. */
  teams?: TeamFacts;
  /** The case's signal facts (over the defaults'), checked; undefined when neither gives any. */
  signals?: SignalFacts;
}

/** An input of the case that cannot apply, with where it is written: in the case or in the defaults. */
export class CaseInputError extends Error {
  constructor(
    readonly origin: 'case' | 'defaults',
    readonly path: FieldPath,
    message: string,
  ) {
    super(message);
    this.name = 'CaseInputError';
  }
}

/** Which entry of the suite a failed edit comes from: the case's own, else the defaults' (they are merged). */
function locateEdit(defaults: PayloadSource, c: SuiteCase, err: PatchError): CaseInputError {
  if (err.section === 'unset') {
    const fromDefaults = defaults.unset?.length ?? 0;
    const index = err.entry as number;
    return index < fromDefaults
      ? new CaseInputError('defaults', ['unset', index], err.message)
      : new CaseInputError('case', ['unset', index - fromDefaults], err.message);
  }
  const section = c[err.section];
  const own = section !== undefined && Object.hasOwn(section, err.entry);
  return new CaseInputError(own ? 'case' : 'defaults', [err.section, err.entry], err.message);
}

/** Payload files are read once per run, whatever number of cases use them. */
export type FileCache = Map<string, unknown>;

/** As the service parses a body: invalid UTF-8 and a key given twice are refused (parse-strict-json.ts). */
function parseJsonPayload(bytes: Buffer, relative: string, field: string): unknown {
  const parsed = parseStrictJson(bytes);
  if (!parsed.ok) throw new Error(`${field} ${relative} ${parsed.message}`);
  return parsed.value;
}

/** YAML refuses a key given twice itself (uniqueKeys); bytes that are not UTF-8 are refused here. */
function parseYamlPayload(bytes: Buffer, relative: string, field: string): unknown {
  if (!isUtf8(bytes)) throw new Error(`${field} ${relative} is not valid UTF-8`);
  try {
    return parseYaml(bytes.toString('utf8'));
  } catch (err) {
    throw new Error(`${field} ${relative} is not valid YAML: ${(err as Error).message}`);
  }
}

function readPayloadFile(suiteFile: string, relative: string, cache: FileCache, field = 'payloadFile'): unknown {
  const full = resolve(dirname(suiteFile), relative);
  if (!cache.has(full)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(full);
    } catch (err) {
      throw new Error(
        `${field} ${relative}: cannot read ${full}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
    cache.set(
      full,
      /\.json$/i.test(full) ? parseJsonPayload(bytes, relative, field) : parseYamlPayload(bytes, relative, field),
    );
  }
  return cache.get(full);
}

/** The case's state over the defaults' (part by part), checked as `eval --state` checks a file. */
function caseState(defaults: PayloadSource, c: SuiteCase): StateFacts | undefined {
  if (defaults.state === undefined && c.state === undefined) return undefined;
  const read = readStateFacts({ ...defaults.state, ...c.state });
  if (!read.ok) throw new Error(`state: ${describeFactErrors(read.errors)}`);
  return read.facts;
}

/** The case's environment names over the defaults' (value by value), checked as `eval --environments` checks a file. */
function caseEnvironments(defaults: PayloadSource, c: SuiteCase): EnvironmentFacts | undefined {
  if (defaults.environments === undefined && c.environments === undefined) return undefined;
  const read = readEnvironmentFacts({ ...defaults.environments, ...c.environments });
  if (!read.ok) throw new Error(`environments: ${describeFactErrors(read.errors)}`);
  return read.facts;
}

/** The case's team members over the defaults' (team by team), checked as `eval --teams` checks a file. */
function caseTeams(defaults: PayloadSource, c: SuiteCase): TeamFacts | undefined {
  if (defaults.teams === undefined && c.teams === undefined) return undefined;
  const read = readTeamFacts({ ...defaults.teams, ...c.teams });
  if (!read.ok) throw new Error(`teams: ${describeFactErrors(read.errors)}`);
  return read.facts;
}

/** One source's signal facts: inline, or from its file. */
function signalsOf(suiteFile: string, s: PayloadSource, cache: FileCache): unknown {
  if (s.signals !== undefined && s.signalsFile !== undefined) throw new Error('give signals or signalsFile, not both');
  const given =
    s.signalsFile === undefined ? s.signals : readPayloadFile(suiteFile, s.signalsFile, cache, 'signalsFile');
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given)))
    throw new Error(`signalsFile ${s.signalsFile} must hold an object of signal facts`);
  return given;
}

/** The case's signals over the defaults' (part by part), checked as `eval --signals` checks a file. */
function caseSignals(
  suiteFile: string,
  defaults: PayloadSource,
  c: SuiteCase,
  cache: FileCache,
): SignalFacts | undefined {
  const base = signalsOf(suiteFile, defaults, cache);
  const own = signalsOf(suiteFile, c, cache);
  if (base === undefined && own === undefined) return undefined;
  const read = validateSignalFacts({ ...(base as object), ...(own as object) });
  if (!read.ok) throw new Error(`signals: ${describeFactErrors(read.errors)}`);
  return read.facts;
}

/**
 * The payload, time and state of one case: the case's own values over the suite's defaults.
 * The defaults' and the case's edits merge (the case's value wins for the same path). Throws with
 * a readable message when the case cannot run; a CaseInputError says where the bad entry is written.
 */
export function prepareCase(
  suiteFile: string,
  defaults: PayloadSource = {},
  c: SuiteCase,
  cache: FileCache,
): PreparedCase {
  const own = c.payload !== undefined || c.payloadFile !== undefined;
  const source = own ? c : defaults;
  const base =
    source.payload !== undefined ? source.payload : readPayloadFile(suiteFile, source.payloadFile as string, cache);
  let patched: unknown;
  try {
    patched = applyPatch(base, {
      add: { ...defaults.add, ...c.add },
      patch: { ...defaults.patch, ...c.patch },
      unset: [...(defaults.unset ?? []), ...(c.unset ?? [])],
    });
  } catch (err) {
    if (err instanceof PatchError) throw locateEdit(defaults, c, err);
    throw new Error(`patch: ${(err as Error).message}`);
  }
  const checked = validatePreflightPayload(patched);
  if (!checked.ok) {
    throw new Error(
      `the payload is not a valid preflight payload (the service would answer 400): ${describeFieldErrors(checked.errors)}`,
    );
  }
  return {
    payload: checked.payload,
    now: new Date((c.now ?? defaults.now) as string),
    state: caseState(defaults, c),
    environments: caseEnvironments(defaults, c),
    teams: caseTeams(defaults, c),
    signals: caseSignals(suiteFile, defaults, c, cache),
  };
}
