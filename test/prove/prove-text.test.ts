import { proveCommand } from '../../src/cli/commands/prove-command';
import { EXIT } from '../../src/cli/exit-codes';
import { BUNDLED, NOW, setDirs } from './prove-sets';

const prove = (dir: string) => {
  let out = '';
  const code = proveCommand(dir, { format: 'text', now: NOW.toISOString() }, {}, (s) => {
    out += s;
  });
  return { code, out };
};

describe('prove, text', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);

  it('says what proven means under the answers it gives', () => {
    const { code, out } = prove(BUNDLED);
    expect(code).toBe(EXIT.ok);
    expect(out).toMatch(/: proven\n[\s\S]*proven means: for /);
  });

  it('with no properties, says only that (no answer to explain)', () => {
    const { code, out } = prove(dirs.bundledWith({ 'no-payments-prod.property.yaml': '' }));
    expect([code, out]).toEqual([EXIT.ok, 'no properties (*.property.yaml) found\n']);
  });
});
