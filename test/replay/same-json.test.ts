import fc from 'fast-check';
import { sameJson } from '../../src/replay/same-json';

test.each([
  [{ a: 1, b: [1, 'x'] }, { a: 1, b: [1, 'x'] }, true],
  [{ a: 1, b: 2 }, { b: 2, a: 1 }, false], // key order is part of the text
  [{ a: 1, u: undefined }, { a: 1 }, true], // JSON leaves undefined out
  [[1, 2], [1, 2, 3], false],
  [[1], { 0: 1 }, false],
  [null, {}, false],
  ['a', 'b', false],
  [1, '1', false],
])('sameJson(%j, %j) is %s', (a, b, same) => {
  expect(sameJson(a, b)).toBe(same);
  expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
});

test('sameText decides about strings that differ', () => {
  const rename = (a: string, b: string) => a === b.split('new-rev').join('old-rev');
  expect(sameJson({ m: 'rev old-rev' }, { m: 'rev new-rev' }, rename)).toBe(true);
  expect(sameJson({ m: 'rev old-rev' }, { m: 'rev other' }, rename)).toBe(false);
});

test('agrees with comparing JSON.stringify texts on arbitrary JSON values', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => sameJson(a, b) === (JSON.stringify(a) === JSON.stringify(b))),
  );
  fc.assert(fc.property(fc.jsonValue(), (a) => sameJson(a, JSON.parse(JSON.stringify(a)))));
});

test('a policy file of the proposed directory reads as the recorded file with the same relative path', async () => {
  const { sameFileUnder } = await import('../../src/replay/compare-answers');
  expect(sameFileUnder('policies', '/srv/preflight/policies/team/a.yaml', 'policies/team/a.yaml')).toBe(true);
  expect(sameFileUnder('/tmp/pr/policies', 'policies/a.yaml', '/tmp/pr/policies/a.yaml')).toBe(true);
  expect(sameFileUnder('policies', '/srv/policies/b.yaml', 'policies/a.yaml')).toBe(false);
  expect(sameFileUnder('policies', '/srv/policies/xa.yaml', 'policies/a.yaml')).toBe(false);
  expect(sameFileUnder('policies', '/srv/a.yaml', 'other/a.yaml')).toBe(false);
  expect(sameFileUnder('policies', 'Denied by 1 policy', 'Denied by 2 policies')).toBe(false);
});
