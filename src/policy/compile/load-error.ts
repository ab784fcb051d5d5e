/** A problem in a policy file, located for a person: `policies/prod.yaml:12:5 rules[0]: message`. */
export interface LoadProblem {
  file: string;
  line: number;
  col: number;
  /** Path inside the document, e.g. `rules[0].environments.blocked`; empty for the whole file. */
  path: string;
  message: string;
  severity: 'error' | 'warning';
}

export function formatProblem(p: LoadProblem): string {
  const where = p.path ? `${p.path}: ` : '';
  return `${p.file}:${p.line}:${p.col} ${p.severity === 'warning' ? 'warning: ' : ''}${where}${p.message}`;
}

/** Thrown by start-up code when a policy set cannot be loaded; carries every problem. */
export class PolicyLoadError extends Error {
  constructor(readonly problems: LoadProblem[]) {
    super(
      `invalid policy set:\n${problems
        .filter((p) => p.severity === 'error')
        .map(formatProblem)
        .join('\n')}`,
    );
    this.name = 'PolicyLoadError';
  }
}
