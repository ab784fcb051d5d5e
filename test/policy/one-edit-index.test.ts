import fc from 'fast-check';
import { editDistance } from '../../src/policy/compile/near-name';
import { OneEditIndex } from '../../src/policy/compile/one-edit-index';
import { typoWarnings, type NameFamily } from '../../src/policy/loading/typo-warnings';
import { generatedSize } from '../helpers/test-lane';

// Short texts over few letters, so that names one edit apart (and swaps of neighbours) are common.
const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-', '1'), minLength: 0, maxLength: 7 });
const runs = generatedSize(2000, 300);

test('every name within one edit of a text is among its candidates, in the order the names were added', () => {
  fc.assert(
    fc.property(fc.array(text, { maxLength: 30 }), text, (names, query) => {
      const near = new OneEditIndex(names).near(query);
      const within = [...new Set(names)].filter((n) => editDistance(query, n) <= 1);
      expect(near.filter((n) => within.includes(n))).toEqual(within);
      expect(near).toEqual([...new Set(names)].filter((n) => near.includes(n)));
    }),
    { numRuns: runs },
  );
});

const at = (i: number) => ({ file: `p${i}.yaml`, line: 3, col: 17, path: 'match.teams[0]' });

/** Names long enough to be warned about (5 letters), from few letters, so that slips are common. */
const longText = fc.string({ unit: fc.constantFrom('a', 'b', '1', '-', 'A'), minLength: 4, maxLength: 7 });

/** typoWarnings as it read before the index: every name a candidate for every text. */
function typoWarningsComparingAll(): typeof typoWarnings {
  let loaded: typeof typoWarnings | undefined;
  jest.isolateModules(() => {
    jest.doMock('../../src/policy/compile/one-edit-index', () => ({
      OneEditIndex: class {
        constructor(private readonly names: Iterable<string>) {}
        near = () => [...new Set(this.names)];
      },
    }));
    loaded = require('../../src/policy/loading/typo-warnings').typoWarnings;
  });
  jest.dontMock('../../src/policy/compile/one-edit-index');
  if (!loaded) throw new Error('typo-warnings did not load');
  return loaded;
}

test('the warnings are the ones comparing each name with every other gives', () => {
  const comparingAll = typoWarningsComparingAll();
  fc.assert(
    fc.property(fc.array(longText, { maxLength: 25 }), fc.array(longText, { maxLength: 4 }), (written, known) => {
      const family: NameFamily = {
        written: written.map((t, i) => ({ text: t, at: at(i), subject: `team "${t}"` })),
        known: new Set(known.map((k) => k.toLowerCase())),
        knownAs: () => 'which is known',
        cost: 'a misspelt team matches no run',
      };
      expect(typoWarnings(family)).toEqual(comparingAll(family));
    }),
    { numRuns: runs },
  );
});
