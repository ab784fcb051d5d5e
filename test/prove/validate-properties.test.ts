import { validateCommand } from '../../src/cli/commands/validate-command';
import { EXIT } from '../../src/cli/exit-codes';
import { BUNDLED, setDirs } from './prove-sets';

/**
 * `validate` points at a property (`*.property.yaml`) that no longer parses or no longer compiles,
 * at its file and line and with the exit code of any other validation error (1), and warns about an
 * environment it names that the set does not, one keystroke from one it does.
 */
const validate = (dir: string, format: 'text' | 'github' = 'text', strict = false) => {
  let out = '';
  const code = validateCommand(dir, { format, strict }, {}, (s) => {
    out += s;
  });
  return { code, out };
};

describe('validate on the properties beside the policies', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);

  it('the bundled set and its property: valid, no warning', () => {
    expect(validate(BUNDLED, 'text', true)).toEqual({
      code: EXIT.ok,
      out: expect.stringMatching(/0 errors, 0 warnings/),
    });
  });

  it.each([
    [
      'a YAML syntax error',
      'kind: PolicyProperty\nname: x\nnever:\n  match: { environments: [payments-prod }\n',
      /x\.property\.yaml:4:\d+ YAML syntax error/,
    ],
    [
      'a misspelt key',
      'kind: PolicyProperty\nname: x\nnevr:\n  match: { environments: [payments-prod] }\n',
      /x\.property\.yaml:3:1 nevr: unknown key \(a property has name, description, never\)/,
    ],
    [
      'a rule kind that does not exist',
      'kind: PolicyProperty\nname: x\nnever:\n  rules:\n    - environmnts: { blocked: [payments-prod] }\n',
      /x\.property\.yaml:5:\d+ never\.rules\[0\]/,
    ],
    [
      'a time zone that does not exist',
      'kind: PolicyProperty\nname: x\nnever:\n  rules:\n    - timeWindow:\n        timeZone: Europe/Berln\n        allowed: [{ days: [Mon], from: "09:00", to: "17:00" }]\n',
      /x\.property\.yaml:6:19 never\.rules\[0\]\.timeWindow\.timeZone: .*Europe\/Berln/,
    ],
    [
      'a name defined twice',
      'kind: PolicyProperty\nname: no-payments-prod\nnever:\n  match: { environments: [prod] }\n',
      /property "no-payments-prod" is defined twice/,
    ],
  ])('%s is an error at its line, exit 1', (_what, text, message) => {
    const res = validate(dirs.bundledWith({ 'x.property.yaml': text }));
    expect(res).toEqual({ code: EXIT.failed, out: expect.stringMatching(message) });
    expect(res.out).toMatch(/: INVALID \(1 error, /);
  });

  it('as a GitHub annotation on the property file', () => {
    const text = 'kind: PolicyProperty\nname: x\nnever:\n  match: { environments: [payments-prod] }\n  rulez: []\n';
    const res = validate(dirs.bundledWith({ 'x.property.yaml': text }), 'github');
    expect(res.code).toBe(EXIT.failed);
    expect(res.out).toMatch(
      /^::error file=\S+x\.property\.yaml,line=5,col=3,title=preflight-gate::never\.rulez: unknown key/m,
    );
  });

  it('an environment one keystroke from one the set names is a warning (an error with --strict)', () => {
    const text = 'kind: PolicyProperty\nname: x\nnever:\n  match: { environments: [payments-prdo] }\n';
    const dir = dirs.bundledWith({ 'x.property.yaml': text });
    const res = validate(dir);
    expect(res.code).toBe(EXIT.ok);
    expect(res.out).toMatch(
      /x\.property\.yaml:4:27 warning: never\.match\.environments\[0\]: property x: environment "payments-prdo" is named by no policy, exception or alias of the set: did you mean "payments-prod"\?/,
    );
    expect(validate(dir, 'text', true).code).toBe(EXIT.failed);
    // A name the set does not write and that is near none of its names is no warning: a property may
    // be about an environment the set never names (an allowlist denies it).
    const other = dirs.bundledWith({ 'x.property.yaml': text.replace('payments-prdo', 'research-lab') });
    expect(validate(other, 'text', true).code).toBe(EXIT.ok);
  });
});
