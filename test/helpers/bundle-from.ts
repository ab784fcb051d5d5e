import { loadBundle } from '../../src/policy/loading/load-bundle';
import type { PolicyBundle } from '../../src/policy/core/compiled';

/**
 * A bundle from inline YAML documents; throws with every problem when the YAML is invalid. Kept apart
 * from test-app.ts so a test that only decides does not load the whole service (express, the config
 * and audit schemas) with it: that cost every such test file about half a second.
 */
export function bundleFrom(files: Record<string, string>, now = new Date()): PolicyBundle {
  const result = loadBundle(
    Object.entries(files).map(([file, text]) => ({ file, text })),
    now,
  );
  if (!result.ok)
    throw new Error(result.problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.path} ${p.message}`).join('\n'));
  return result.bundle;
}
