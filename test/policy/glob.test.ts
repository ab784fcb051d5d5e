import fc from 'fast-check';
import picomatch from 'picomatch';
import { compileGlobs } from '../../src/policy/syntax/glob';
import { generatedSize } from '../helpers/test-lane';

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

  // The matcher tests a regex itself instead of calling picomatch's matcher: both must always agree.
  const PATTERNS = [
    '*shutdown*',
    'com.steadybit.*',
    'SHOP-1?',
    '{ADM,SHOP}-2',
    'pay-[0-9]',
    './ADM-*',
    'ADM-1*',
    'ops_*',
    '*-1',
    'a/**/b',
    '!(x)*',
    '@(ab|cd)',
    '*.\\*',
    'google-oauth2\\|931455',
    'a\\[b',
  ];
  const VALUES = fc.oneof(
    fc.string(),
    fc.constantFrom(...PATTERNS),
    fc
      .array(fc.constantFrom('a', 'B', '-', '1', '2', '.', '/', '\\', '*', 'shop', 'ADM', 'shutdown', 'x', 'ſ', ''), {
        maxLength: 8,
      })
      .map((xs) => xs.join('')),
  );
  test('agrees with picomatch on every pattern and value', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATTERNS), VALUES, (pattern, value) => {
        const reference = picomatch(pattern, { nocase: true, dot: true, bash: true, windows: false });
        expect(compileGlobs([pattern])(value)).toBe(reference(value));
      }),
      { numRuns: generatedSize(3000, 300) },
    );
  });
});
