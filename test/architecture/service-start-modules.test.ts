import { ROOT } from '../helpers/server-process';
import { startModules } from './start-modules';

// Issue 48 item 3: what the service loads to start is what it needs to
// serve. The CLI, diff/prove, replay and the playground's page load only in their own commands,
// and the `yaml` library only when a file needs it (common/yaml-library.ts).
describe('the modules the service loads as it starts (src/main.ts)', () => {
  const start = startModules(ROOT, 'main.ts');

  it('are the service: no CLI, diff/prove, replay or playground page module', () => {
    // The graph really is the service's: an empty one would prove nothing.
    expect(start.files).toEqual(expect.arrayContaining(['service/start-server.ts', 'http/preflight-route.ts']));
    expect(start.files.filter((f) => /^(cli|prove|replay|playground\/page)\//.test(f))).toEqual([]);
  });

  it('leave the yaml library out: plain policy files are read without it', () => {
    expect(start.packages).toEqual(expect.arrayContaining(['express', 'prom-client']));
    expect(start.packages).not.toContain('yaml');
  });
});
