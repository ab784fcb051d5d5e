import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalCommand } from '../../src/cli/commands/eval-command';
import { loadSuites } from '../../src/cli/suite/load-suites';
import { prepareCase, type FileCache } from '../../src/cli/suite/prepare-case';
import { validatePreflightPayload } from '../../src/payload/validate-payload';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import type { PreflightPayload } from '../../src/policy/core/decision';
import type { GuardrailState } from '../../src/state/guardrail-state';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import { examplePayloadFiles, payload } from '../helpers/fixtures';
import { ROOT } from '../helpers/server-process';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';

/**
 * Issue 19, item 1: `eval` gives exactly the answer of the running service (status, message,
 * modifications), built-in emergency stop included: every fixture payload and every case of the
 * starter suites (policies/*.test.yaml), with the emergency stop disengaged and engaged.
 */
const POLICIES = join(ROOT, 'policies');
const SECRET = 'parity-secret';
const FIXTURE_NOW = '2026-01-05T10:00:00Z';

interface Case {
  name: string;
  payload: PreflightPayload;
  now: Date;
}

/** Every fixture that is a preflight payload: Steadybit's examples and the starter set's policies/testdata. */
function fixtureCases(): Case[] {
  const testdata = readdirSync(join(POLICIES, 'testdata'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => [`policies/testdata/${f}`, JSON.parse(readFileSync(join(POLICIES, 'testdata', f), 'utf8'))] as const);
  return [...examplePayloadFiles().map((file) => [file, payload(file)] as const), ...testdata].flatMap(
    ([name, body]) => {
      const checked = validatePreflightPayload(body);
      return checked.ok ? [{ name, payload: checked.payload, now: new Date(FIXTURE_NOW) }] : [];
    },
  );
}

function suiteCases(): Case[] {
  const cache: FileCache = new Map();
  return loadSuites(POLICIES).flatMap((suite) =>
    (suite.doc?.cases ?? []).map((c) => {
      const prepared = prepareCase(suite.file, suite.doc?.defaults, c, cache);
      return { name: `${suite.file}: ${c.name}`, payload: prepared.payload, now: prepared.now };
    }),
  );
}

const CASES = [...fixtureCases(), ...suiteCases()];

interface Answer {
  status: number;
  message: string;
  modifications?: unknown;
}

/** The running service's answer: the real app, its memory state store told of the stop through POST /events. */
async function serviceAnswer(c: Case, engagedAt: string | undefined): Promise<Answer> {
  const loaded = loadPolicyDir(POLICIES, c.now);
  if (!loaded.ok) throw new Error(loaded.problems[0].message);
  const state: GuardrailState = {
    store: new MemoryStateStore({ executionTtlMs: 4 * 3600_000, eventToleranceMs: 900_000 }),
    onUnavailable: 'deny',
    emergencyStop: 'enforce',
    eventToleranceMs: 900_000,
  };
  const { app } = testApp(loaded.bundle, { secrets: [SECRET], state, clock: () => c.now, newId: () => 'parity' });
  if (engagedAt !== undefined) {
    const event = await signedRequest(
      app,
      { event: 'killswitch.engaged', time: engagedAt, killswitch: { engagedBy: 'jane', engaged: engagedAt } },
      { path: '/events', secret: SECRET },
    );
    expect(event.status).toBe(202);
  }
  const res = await signedRequest(app, JSON.stringify(c.payload), { secret: SECRET });
  return { status: res.status, message: res.body.message, modifications: res.body.modifications };
}

/** `eval --format json --explain` on the same payload, time and (with --state) facts; its own decision id read back and replaced. */
async function evalAnswer(c: Case, engagedAt: string | undefined, dir: string): Promise<Answer> {
  const payloadFile = join(dir, 'payload.json');
  writeFileSync(payloadFile, JSON.stringify(c.payload));
  let state: string | undefined;
  if (engagedAt !== undefined) {
    state = join(dir, 'state.json');
    writeFileSync(state, JSON.stringify({ emergencyStop: { engaged: true, by: 'jane', since: engagedAt } }));
  }
  let out = '';
  const code = await evalCommand(
    { payload: payloadFile, now: c.now.toISOString(), dir: POLICIES, state, format: 'json', explain: true },
    {},
    (s) => {
      out += s;
    },
  );
  expect(code).toBe(0);
  const parsed = JSON.parse(out) as {
    status: number;
    body: { message: string; modifications?: unknown };
    explanation: { id: string };
  };
  const same = JSON.parse(JSON.stringify(parsed.body).split(parsed.explanation.id).join('parity')) as Answer;
  return { status: parsed.status, message: same.message, modifications: same.modifications };
}

describe('eval answers as the service does', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'parity-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('there are fixture payloads and starter suite cases to compare', () => {
    expect(fixtureCases().length).toBeGreaterThanOrEqual(2);
    expect(suiteCases().length).toBeGreaterThanOrEqual(20);
  });

  test.each(CASES.map((c) => [c.name, c] as const))(
    '%s: same status, message and modifications, stop disengaged and engaged',
    async (_name, c) => {
      const quiet = await serviceAnswer(c, undefined);
      expect(await evalAnswer(c, undefined, dir)).toEqual(quiet);
      const engagedAt = new Date(c.now.getTime() - 60_000).toISOString();
      const stopped = await serviceAnswer(c, engagedAt);
      expect(stopped.status).toBe(403);
      expect(stopped.message).toContain('[emergency-stop (built-in)] the emergency stop is engaged (by jane since');
      expect(await evalAnswer(c, engagedAt, dir)).toEqual(stopped);
    },
  );
});
