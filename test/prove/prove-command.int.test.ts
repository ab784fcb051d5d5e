import { spawnSync } from 'node:child_process';
import { CLI } from '../cli/run-cli';
import { ROOT } from '../helpers/server-process';
import { BUNDLED, setDirs } from './prove-sets';

/** `preflight-gate prove` and the loader's view of property files, as a pull request's CI runs them. */
const NOW = '2026-03-02T10:00:00Z';
const cli = (args: string[], env: Record<string, string> = {}) => {
  const res = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
};

describe('preflight-gate prove', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);

  it('the bundled set: proven, exit 0; --format json lists it', () => {
    const text = cli(['prove', BUNDLED, '--now', NOW]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/no-payments-prod\.property\.yaml: no-payments-prod: proven\n/);
    const json = JSON.parse(cli(['prove', BUNDLED, '--now', NOW, '--format', 'json']).stdout);
    expect(json.properties).toEqual([expect.objectContaining({ property: 'no-payments-prod', status: 'proven' })]);
  });

  it('a counterexample exits 1 and prints the witness', () => {
    const dir = dirs.bundledWith({ 'blocked-environments.yaml': '', 'blocked-environments.test.yaml': '' });
    const res = cli(['prove', dir, '--now', NOW]);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/no-payments-prod: counterexample\n.*\n {2}answer: allowed/);
  });

  it('unknown exits 0, and 1 with --strict', () => {
    const dir = dirs.write({
      'p.yaml': 'kind: Policy\nname: all\nrules:\n  - condition: { deny: { "==": [1, 1] }, reason: nothing runs }\n',
      'x.property.yaml': 'kind: PolicyProperty\nname: x\nnever:\n  match: { environments: [payments-prod] }\n',
    });
    expect(cli(['prove', dir, '--now', NOW])).toMatchObject({ code: 0, stdout: expect.stringMatching(/x: unknown/) });
    expect(cli(['prove', dir, '--now', NOW, '--strict']).code).toBe(1);
  });

  it('a malformed property is a usage error (exit 2) naming the file', () => {
    const dir = dirs.bundledWith({ 'bad.property.yaml': 'kind: PolicyProperty\nname: bad\nnever: { mach: {} }\n' });
    const res = cli(['prove', dir, '--now', NOW]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/bad\.property\.yaml:3:10 never\.mach: unknown key/);
  });

  it('validate: a property file is neither loaded nor warned about; a policy saved under that name is an error', () => {
    expect(cli(['validate', BUNDLED, '--strict'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/0 warnings/),
    });
    const dir = dirs.bundledWith({
      'x.property.yaml': 'kind: Policy\nname: x\nrules:\n  - environments: { blocked: [prod] }\n',
    });
    const res = cli(['validate', dir]);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/x\.property\.yaml holds kind: Policy, but \*\.property\.yaml files are properties/);
  });
});
