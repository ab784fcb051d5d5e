import picomatch from 'picomatch';

/** A case-insensitive glob (`*shutdown*`, `com.steadybit.extension_aws.*`) compiled once. */
export type Matcher = (value: string) => boolean;

export function compileGlobs(patterns: readonly string[]): Matcher {
  const exact = new Set<string>();
  const globs: Matcher[] = [];
  for (const p of patterns) {
    if (picomatch.scan(p).isGlob) globs.push(picomatch(p, { nocase: true, dot: true, bash: true }));
    else exact.add(p.toLowerCase());
  }
  return (value) => exact.has(value.toLowerCase()) || globs.some((g) => g(value));
}
