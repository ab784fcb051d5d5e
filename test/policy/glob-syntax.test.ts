import { compileGlobs } from '../../src/policy/core/glob-matcher';
import { globProblem } from '../../src/syntax/glob-syntax';

describe('glob syntax: every pattern the docs show, and every shape the grammar names, is accepted', () => {
  test.each([
    '*shutdown*',
    'com.steadybit.extension_aws.*',
    'SHOP-1?',
    '{ADM,SHOP}-2',
    'pay-[0-9]',
    './ADM-*',
    'ADM-1*',
    'a/**/b',
    '!(x)*',
    '@(ab|cd)',
    '*.\\*',
    'com.steadybit.extension_kubernetes.*',
    '*container*',
    'SHOP-*',
    'SHOP-42',
    '{a,{b,c}}',
    '{1..5}',
    '{a..f}-x',
    'x[[:alpha:]]',
    '[^a-z]*',
    '[a-]',
    '[-a]',
    '[\\]]',
    '+(ab)',
    '*(a|b)c',
    '?(x)y',
    'a,b',
    'a\\[b',
    'a\\(b\\)',
    'a\\|b',
    '{a,b}@(c|d)',
    'SHOP-{1..3}{0..9}',
    'ſ*',
  ])('%s', (pattern) => {
    expect(globProblem(pattern)).toBeUndefined();
    expect(() => compileGlobs([pattern])).not.toThrow();
  });
});

describe('a malformed glob is refused with the column of its fault, never read as a literal or a match-nothing', () => {
  test.each([
    ['com.steadybit.[extension_*', 'the [ at column 15 is never closed; write \\[ for a literal ['],
    ['[z-a]', 'the range "z-a" at column 2 is reversed (nothing lies between); write a-z'],
    ['x[a-Z]', 'the range "a-Z" at column 3 is reversed (nothing lies between); write Z-a'],
    ['{a,b', 'the { at column 1 is never closed; write \\{ for a literal {'],
    ['a,b}', 'the } at column 4 has no matching {; write \\} for a literal }'],
    ['{a,b}}', 'the } at column 6 has no matching {; write \\} for a literal }'],
    ['@(a|b', 'the @( at column 1 is never closed; write \\( for a literal ('],
    ['x!(a', 'the !( at column 2 is never closed; write \\( for a literal ('],
    ['(a|b)', 'the ( at column 1 is not an extglob; write @(a|b) for alternatives or \\( for a literal ('],
    ['a)', 'the ) at column 2 has no matching (; write \\) for a literal )'],
    ['a]b', 'the ] at column 2 has no matching [; write \\] for a literal ]'],
    ['{a,}', 'empty alternative at column 4 in the { at column 1'],
    ['{,a}', 'empty alternative at column 2 in the { at column 1'],
    ['{a,,b}', 'empty alternative at column 4 in the { at column 1'],
    ['{}', 'the { at column 1 is empty'],
    ['@()', 'the @( at column 1 is empty'],
    ['@(a||b)', 'empty alternative at column 5 in the @( at column 1'],
    ['+(a|)', 'empty alternative at column 5 in the +( at column 1'],
    [
      '{a}',
      'the {a} at column 1 has a single alternative (it would match the braces literally); write {a,b}, a range such as {1..5}, or \\{ for a literal {',
    ],
    ['[]', 'the character class at column 1 is empty; write \\[\\] for the literal text "[]"'],
    ['[^]', 'the character class at column 1 is empty; write \\[\\] for the literal text "[]"'],
    ['[!a]', '"[!" at column 1 is not a negation here (it matches "!"); write [^...] for "none of"'],
    [
      'x[[:alfa:]]',
      'unknown character class "[:alfa:]" at column 3; known: [:alnum:] [:alpha:] [:ascii:] [:blank:] [:cntrl:] [:digit:] [:graph:] [:lower:] [:print:] [:punct:] [:space:] [:upper:] [:word:] [:xdigit:]',
    ],
    [
      'shutdown|delete',
      '"|" at column 9 is not inside an extglob; write @(a|b) or {a,b} for alternatives, \\| for a literal |',
    ],
    [
      '!shutdown',
      'a leading "!" negates the whole pattern (it would match everything else); list what you mean, or use !(...) inside a pattern',
    ],
    [
      'SHOP-{1..5000}',
      'the range {1..5000} at column 6 has 5000 values (at most 1000); write a class such as [0-9] or a * for a wider one',
    ],
    ['abc\\', 'it ends with a lone backslash; write \\\\ for a literal backslash'],
    ['*shutdown* ', 'it starts or ends with whitespace, which no id or key has'],
  ])('%s', (pattern, why) => {
    expect(globProblem(pattern)).toBe(`malformed glob "${pattern}": ${why}`);
  });
});
