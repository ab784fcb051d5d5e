import type { Step } from '../../src/payload/types';
import { runOf, spaceOf } from '../../src/prove/dimensions';
import { termsOf } from '../../src/prove/terms';
import { NOW, setDirs, setOf } from './prove-sets';

// docs/prove.md, "What every run covers": a rule reading targets is decided on the run listing all
// its expected targets and on one listing fewer than it expects. With no count cap written, the
// count classes must still hold a run that expects more targets than it lists (a targetAttributes
// rule with whenMissing: deny answers "cannot decide" there, and nowhere else for that reason).
describe('the classes of a set whose target rule writes no count', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);

  it('hold a run that lists some of its targets, not all', () => {
    const dir = dirs.write({
      'ns.yaml': `kind: Policy
name: ns
rules:
  - targetAttributes: { forbid: { k8s.namespace: [kube-system] }, whenMissing: deny }
`,
    });
    const set = setOf(dir);
    const docs = [...set.policies.values(), ...set.exceptions];
    const space = spaceOf(docs, [set.bundle], [set.aliases], termsOf(set), set.bundle.exceptions, NOW);
    const count = space.index.get('count') as number;
    const listing = space.index.get('listing') as number;
    const partial: Step[] = [];
    space.dims[count].values.forEach((_, c) =>
      space.dims[listing].values.forEach((_, l) => {
        const a = space.dims.map(() => 0);
        a[count] = c;
        a[listing] = l;
        const [step] = runOf(space, a, [set.bundle]).payload.execution.steps as Step[];
        const listed = step.targetExecutions?.length ?? 0;
        if (listed > 0 && typeof step.totalTargetCount === 'number' && step.totalTargetCount > listed)
          partial.push(step);
      }),
    );
    expect(partial.length).toBeGreaterThan(0);
  });
});
