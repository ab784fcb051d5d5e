import fs from 'node:fs';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetrics } from '../../src/observability/metrics';
import { ignoredPolicyFiles } from '../../src/policy/loading/ignored-policy-files';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { readPolicyDir } from '../../src/policy/loading/read-policy-dir';
import { reloadReport } from '../../src/observability/reload-report';
import { createPolicyReloader } from '../../src/policy/runtime/policy-reloader';
import { PolicyStore } from '../../src/policy/runtime/policy-store';
import { capturingLogger } from '../helpers/capturing-logger';
import { blockPolicy } from './reload-helpers';

/**
 * A load reads the policy directory once (docs/decisions/0032): the policies, the misplaced ones,
 * the files the suites read and the files not loaded all come from one walk. Counted with a double
 * of `readdirSync` that counts and reads as the real one does.
 */
describe('one walk of the policy directory per load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-one-walk-'));
  mkdirSync(join(dir, 'teams'));
  writeFileSync(join(dir, 'gate.yaml'), blockPolicy('gate', 'alpha'));
  writeFileSync(join(dir, 'teams', 'shop.yaml'), blockPolicy('shop', 'beta'));
  writeFileSync(join(dir, 'gate.test.yaml'), 'cases: []\n');
  writeFileSync(join(dir, 'notes.json'), '{}\n');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The directories read (readdirSync) while `run` runs. */
  const directoriesRead = (run: () => void): string[] => {
    const spy = jest.spyOn(fs, 'readdirSync');
    try {
      run();
      return spy.mock.calls.map(([path]) => String(path));
    } finally {
      spy.mockRestore();
    }
  };

  it('a reload reads each directory once and still finds the files not loaded', () => {
    const store = new PolicyStore();
    const { logger } = capturingLogger();
    const events = reloadReport({ metrics: createMetrics({ defaultMetrics: false }), logger, builtIns: [] });
    const reloader = createPolicyReloader({ dir, store, events });
    const read = directoriesRead(() => expect(reloader.reload('startup')).toMatchObject({ result: 'success' }));
    expect(read.sort()).toEqual([dir, join(dir, 'teams')]);
    expect(reloader.filesNotLoaded()).toEqual(['notes.json']);
    expect(store.lastLoad()?.problems).toEqual([
      `${join(dir, 'notes.json')}:1:1 warning: not loaded, ignored: only *.yaml and *.yml files are policies (rename it to <name>.yaml if it is meant as a policy, else move it out of the policy directory; docs/policies.md#the-policy-directory)`,
    ]);
    // An attempt that finds the files unchanged (the watch's second look at start-up) walks once too.
    const again = directoriesRead(() => expect(reloader.reload('SIGHUP')).toMatchObject({ result: 'unchanged' }));
    expect(again.sort()).toEqual([dir, join(dir, 'teams')]);
  });

  it('loadPolicyDir (validate, test) reads each directory once', () => {
    const read = directoriesRead(() => expect(loadPolicyDir(dir).ok).toBe(true));
    expect(read.sort()).toEqual([dir, join(dir, 'teams')]);
  });

  it('a link to nothing still refuses the policies and leaves the other files listed', () => {
    const linked = mkdtempSync(join(tmpdir(), 'preflight-one-walk-link-'));
    try {
      writeFileSync(join(linked, 'gate.yaml'), blockPolicy('gate', 'alpha'));
      writeFileSync(join(linked, 'notes.json'), '{}\n');
      symlinkSync(join(linked, 'gone.yaml'), join(linked, 'a-link.yaml'));
      expect(() => readPolicyDir(linked)).toThrow(
        `ENOENT: no such file or directory, stat '${join(linked, 'a-link.yaml')}'`,
      );
      expect(ignoredPolicyFiles(linked)).toEqual(['notes.json']);
    } finally {
      rmSync(linked, { recursive: true, force: true });
    }
  });
});
