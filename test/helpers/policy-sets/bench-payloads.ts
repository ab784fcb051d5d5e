import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PreflightPayload } from '../../../src/payload/types';
import { validatePreflightPayload } from '../../../src/payload/validate-payload';
import { ALIAS_IDS, teamKey } from './universe';

export interface NamedPayload {
  name: string;
  payload: PreflightPayload;
}

type Change = Partial<Record<'teamKey' | 'experimentKey' | 'environment' | 'createdVia', string | undefined>>;

const CHANGES: Array<[string, Change]> = [
  ['team run in dev', { teamKey: teamKey(0), experimentKey: `${teamKey(0)}-1`, environment: 'dev' }],
  [
    'team run in production (alias id)',
    { teamKey: teamKey(1), experimentKey: `${teamKey(1)}-17`, environment: ALIAS_IDS.production },
  ],
  [
    'team run in payments-prod',
    { teamKey: teamKey(2), experimentKey: `${teamKey(2)}-150`, environment: 'payments-prod' },
  ],
  ['unknown team in sandbox', { teamKey: 'NOBODY', experimentKey: 'NOBODY-1', environment: 'sandbox' }],
  [
    'scheduled team run in qa',
    { teamKey: teamKey(3), experimentKey: `${teamKey(3)}-12`, environment: 'qa', createdVia: 'SCHEDULE' },
  ],
];

const EXAMPLE = join('src', 'payload', 'spec-execution-example-as-preflight.json');

/** The repository's copy of the example, found upwards from here: run from test/ by jest, or compiled into .bench/build/ by the benchmark. */
function examplePath(from = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, EXAMPLE))) return join(dir, EXAMPLE);
    if (dirname(dir) === dir) throw new Error(`no ${EXAMPLE} above ${from}`);
  }
}

/** The spec's execution example (test/fixtures/payloads), as every variant starts. */
export function examplePreflight(): PreflightPayload {
  return JSON.parse(readFileSync(examplePath(), 'utf8')) as PreflightPayload;
}

/**
 * The benchmark's payloads: `base` (the spec's execution example unless given) as runs of the
 * generated organisation's teams in several environments (one by alias id), an unknown team and a
 * scheduled run. Each is a valid preflight payload.
 */
export function benchPayloads(base: PreflightPayload = examplePreflight()): NamedPayload[] {
  return CHANGES.map(([name, change]) => {
    const payload = structuredClone(base);
    for (const [key, value] of Object.entries(change) as Array<[keyof Change, string | undefined]>) {
      if (value === undefined) delete payload.execution[key];
      else payload.execution[key] = value;
    }
    if (!validatePreflightPayload(payload).ok)
      throw new Error(`benchmark payload "${name}" is not a valid preflight payload`);
    return { name, payload };
  });
}
