import { compileGlobs } from '../../src/policy/core/glob-matcher';
import { positionsMatcher } from '../../src/syntax/glob-positions';
import { globSource } from '../../src/syntax/glob-regex';
import { readGlob } from '../../src/syntax/glob-syntax';

describe('globs in scopes and rules: case-insensitive, whole value', () => {
  test.each([
    ['*shutdown*', 'com.steadybit.extension_host.shutdown', true],
    ['*shutdown*', 'com.steadybit.extension_host.SHUTDOWN_host', true],
    ['*shutdown*', 'com.steadybit.extension_host.stop', false],
    ['com.steadybit.extension_aws.*', 'com.steadybit.extension_aws.ec2_instance.state', true],
    ['com.steadybit.extension_aws.*', 'com.steadybit.extension_kubernetes.delete_pod', false],
    ['SHOP-1?', 'shop-12', true],
    ['SHOP-1?', 'SHOP-123', false],
    ['{ADM,SHOP}-2', 'adm-2', true],
    ['pay-[0-9]', 'PAY-3', true],
    ['pay-[0-9]', 'pay-x', false],
    ['*', '', false],
    ['ADM-*', 'ADM-*', true],
    ['ADM-1', 'adm-1', true],
    ['ADM-1', 'ADM-12', false],
    // Escaped literals match the character they escape, not a backslash (a username scoped by
    // createdBy: google-oauth2|931455 once silently skipped its policy).
    ['google-oauth2\\|931455', 'google-oauth2|931455', true],
    ['google-oauth2\\|931455', 'GOOGLE-OAUTH2|931455', true],
    ['google-oauth2\\|931455', 'google-oauth2|9314556', false],
    ['a\\[b', 'a[b', true],
    ['a\\{b', 'a{b', true],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
  ])('%s against %j: %s', (pattern, value, expected) => {
    expect(compileGlobs([pattern])(value)).toBe(expected);
  });

  test('a list matches when any of its patterns does', () => {
    const matches = compileGlobs(['ADM-1', '*stop']);
    expect([matches('adm-1'), matches('container.stop'), matches('container.start')]).toEqual([true, true, false]);
  });

  // Each checked against bash too (`shopt -s extglob; [[ value == pattern ]]`, which reads values
  // the same way: not as paths), braces as bash expands them.
  test.each([
    // A glob matches the strings it denotes, never its own text for being its text.
    ['PAY-{1..9}', 'PAY-{1..9}', false],
    ['PAY-[1-9]', 'PAY-[1-9]', false],
    ['SHOP-1?', 'SHOP-1?', true],
    // `/` is a character like any other: no trailing separator is let through.
    ['PAY-[1-9]', 'PAY-1/', false],
    ['PAY-{1..9}', 'PAY-1/', false],
    ['PAY-*', 'PAY-1/', true],
    ['?', '/', true],
    ['a?b', 'a/b', true],
    ['[^a]', '/', true],
    // Dots are characters too: no segment is special, no leading ./ is dropped.
    ['*', '.', true],
    ['*', '..', true],
    ['PAY-*', 'PAY-x/..', true],
    ['./ADM-*', './ADM-1', true],
    ['./ADM-*', 'ADM-1', false],
    // Ranges as bash expands them.
    ['{1..10}', '5', true],
    ['{1..10}', '10', true],
    ['{1..10}', '0', false],
    ['{5..1}', '3', true],
    ['{01..10}', '02', true],
    ['{01..10}', '2', false],
    ['{-1..1}', '0', true],
    ['{-1..1}', '-1', true],
    ['{1..9..2}', '3', true],
    ['{1..9..2}', '4', false],
    ['{a..f}', 'F', true],
    ['{Z..a}', '_', true],
    // Extglobs; !(a) is any text that is not a, here or mid-pattern.
    ['!(x)*', 'x', true],
    ['a!(b)c', 'abc', false],
    ['a!(b)c', 'ac', true],
    ['a!(b)c', 'axc', true],
    ['!(a|b)', 'ab', true],
    ['*(a|b)c', 'abc', true],
    ['+(ab)', 'abab', true],
    ['+(ab)', 'aba', false],
    // One character is one code point; case by Unicode simple case folding.
    ['?', '😀', true],
    ['x?', 'x\ud83d', true],
    ['[^a]', '😀', true],
    ['s*', 'ſhop-1', true],
    ['k', '\u212a', true],
    ['[a-z]', 'ſ', true],
    ['i', 'ı', false],
    ['σ', 'ς', true],
    ['σ*', 'Σ', true],
    ['ß', 'ss', false],
    ['[[:alpha:]]', 'é', false],
    ['[[:lower:]]', 'Q', true],
  ])('%s against %j: %s (the documented meaning)', (pattern, value, expected) => {
    expect(compileGlobs([pattern])(value)).toBe(expected);
  });

  // compileGlobs takes a set hit on the lower-cased value as a match, whatever the value holds.
  test('no character lower-cases into ASCII but the Kelvin sign, which folds to that k', () => {
    const intoAscii: string[] = [];
    for (let c = 0x80; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      if (/^[\u0000-\u007f]+$/.test(String.fromCodePoint(c).toLowerCase())) intoAscii.push(c.toString(16));
    }
    expect(intoAscii).toEqual(['212a']);
    expect(compileGlobs(['k'])('\u212a')).toBe(true);
  });
});

// A regex tries every split of a value between a glob's stars: `*a*a*a*b` against a thousand `a`s took
// 51 s (Node 20). Globs with more than one star have no regex (glob-regex.ts) and are matched by
// their positions (glob-positions.ts), which walk a star once.
describe('globs with more than one star', () => {
  const nodes = (glob: string) => {
    const read = readGlob(glob);
    if (!read.ok) throw new Error(read.problem);
    return read.nodes;
  };

  test.each(['*a*b', '*a*a*a*b', '{*a,*b}*c', 'x*y{*z,w}', '!(*a)*b'])('%s is not a regex', (glob) => {
    expect(globSource(nodes(glob))).toBeUndefined();
  });

  test.each(['*a', 'a*', '{*a,b}', '?a[b-c]*'])('%s, with one star, still is', (glob) => {
    expect(globSource(nodes(glob))).toBeDefined();
  });

  test.each([
    ['*a*a*a*b', false],
    ['*a*a*a*a', true],
    ['{*a*a,*b*b}*c', false],
    ['*a?*a[a-z]*a', true],
  ])('%s against 20,000 a: %s', (glob, expected) => {
    expect(positionsMatcher(nodes(glob))('a'.repeat(20_000))).toBe(expected);
    expect(compileGlobs([glob])('a'.repeat(20_000))).toBe(expected);
  });
});
