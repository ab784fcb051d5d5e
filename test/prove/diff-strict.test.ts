import { diffCommand } from '../../src/cli/commands/diff-command';
import { EXIT } from '../../src/cli/exit-codes';
import { BUNDLED, NOW, setDirs } from './prove-sets';

// A change beyond the analysis (a json-logic condition's scope) has no witness looked for: diff says it is
// unknown, once, and only --strict fails on it (independent review: a loosened guardrail passed
// with a warning the Action's default does not fail on).
describe('diff --strict', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const condition = (scope: string) => `kind: Policy
name: by-condition
${scope}rules:
  - condition:
      deny: { "==": [{ var: "execution.experimentKey" }, "FORBIDDEN-1"] }
      reason: that experiment is forbidden
`;
  const base = dirs.bundledWith({ 'by-condition.yaml': condition('') });
  const loosened = dirs.bundledWith({ 'by-condition.yaml': condition('exclude: { teams: [SRE] }\n') });
  const diff = (strict: boolean) => {
    let out = '';
    const code = diffCommand(
      base,
      loosened,
      { format: 'text', failOn: 'newly-allowed', now: NOW.toISOString(), strict },
      {},
      (s) => {
        out += s;
      },
    );
    return { code, out };
  };

  it('the loosening is said once as unknown, and passes newly-allowed without --strict', () => {
    const { code, out } = diff(false);
    expect(code).toBe(EXIT.ok);
    const lines = out.split('\n').filter((l) => l.includes('by-condition') && l.includes('beyond the analysis'));
    expect(lines).toHaveLength(1);
  });

  it('fails with --strict', () => {
    expect(diff(true).code).toBe(EXIT.failed);
  });

  it('identical sets pass with --strict', () => {
    let out = '';
    const code = diffCommand(BUNDLED, BUNDLED, { format: 'text', now: NOW.toISOString(), strict: true }, {}, (s) => {
      out += s;
    });
    expect([code, out]).toEqual([EXIT.ok, expect.stringContaining('no run')]);
  });
});

test('diff of a directory that does not exist says so (it takes directories, not POLICY_DIR)', () => {
  expect(() => diffCommand('/nonexistent/base', BUNDLED, { format: 'text' }, {}, () => undefined)).toThrow(
    '/nonexistent/base is not a directory: give the directory that holds the policy YAML files',
  );
});
