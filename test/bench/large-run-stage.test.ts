import { largeRunRows, readDecideFigures, readParseFigures } from '../../bench/large-run-stage';

const parseOut = JSON.stringify({
  parse: [
    { targets: 500, bodyBytes: 500_000, parseMicros: 4000, floorParseMicros: 3000 },
    { targets: 1000, bodyBytes: 1_000_000, parseMicros: 8000, floorParseMicros: 6000 },
  ],
});
const decideOut = (decide: unknown[]) => JSON.stringify({ policies: 3, decide });

describe('the big-run stage reads its children', () => {
  it('reads the parse and decide figures and builds one row per size and set, with the ns per target and policy', () => {
    const parse = readParseFigures(parseOut, 'parse');
    const set = readDecideFigures(
      decideOut([
        { targets: 500, decideMicros: 1500, readMicros: 100, visitedPerDecision: 3 },
        { targets: 1000, decideMicros: 3300, readMicros: 250, visitedPerDecision: 3 },
      ]),
      'perGroup',
    );
    const rows = largeRunRows(parse, [{ name: 'perGroup', ...set }]);
    expect(rows.map((r) => [r.set, r.policies, r.targets, r.parseMicros, r.floorParseMicros])).toEqual([
      ['perGroup', 3, 500, 4000, 3000],
      ['perGroup', 3, 1000, 8000, 6000],
    ]);
    expect(rows.map((r) => r.nanosPerTargetPolicy)).toEqual([1000, 1100]);
    expect(rows.map((r) => r.readNanosPerTarget)).toEqual([200, 250]);
  });

  it('orders rows by size, then set, as the report prints them', () => {
    const parse = readParseFigures(parseOut, 'parse');
    const decide = [
      { targets: 500, decideMicros: 1, readMicros: 1, visitedPerDecision: 1 },
      { targets: 1000, decideMicros: 2, readMicros: 2, visitedPerDecision: 1 },
    ];
    const rows = largeRunRows(parse, [
      { name: 'a', policies: 1, decide },
      { name: 'b', policies: 2, decide },
    ]);
    expect(rows.map((r) => `${r.targets} ${r.set}`)).toEqual(['500 a', '500 b', '1000 a', '1000 b']);
  });

  it('fails naming the child when its output is not the figures', () => {
    expect(() => readParseFigures('Error: boom', 'big runs, parse')).toThrow('big runs, parse printed no JSON');
    expect(() => readParseFigures('{"decide":[]}', 'big runs, parse')).toThrow('printed no "parse" figures');
    expect(() => readDecideFigures(decideOut([{ targets: 500, decideMicros: null }]), 'big runs, bundled')).toThrow(
      'big runs, bundled printed a row without decideMicros, readMicros, visitedPerDecision',
    );
    expect(() =>
      readDecideFigures(
        JSON.stringify({ decide: [{ targets: 1, decideMicros: 1, readMicros: 1, visitedPerDecision: 1 }] }),
        'x',
      ),
    ).toThrow('x printed no policy count');
  });

  it('fails when a set has no decisions at a size that was parsed', () => {
    const parse = readParseFigures(parseOut, 'parse');
    const set = {
      name: 'bundled',
      policies: 5,
      decide: [{ targets: 500, decideMicros: 1, readMicros: 1, visitedPerDecision: 1 }],
    };
    expect(() => largeRunRows(parse, [set])).toThrow('bundled: no decisions measured at 1000 targets');
  });
});
