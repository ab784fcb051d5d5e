/**
 * Text with `{{name}}` placeholders filled from the run at decision time, e.g. a matcher value
 * `{{environment}}` or a PromQL label value. Compiled once, at load time; an unknown placeholder is
 * a load error. Values are escaped for the place they land in (see `Escape`), never pasted raw.
 */
export const SIGNAL_PLACEHOLDERS = ['environment', 'team', 'experimentKey', 'executionId'] as const;
export type SignalPlaceholder = (typeof SIGNAL_PLACEHOLDERS)[number];

/** One environment at a time: a rule with `{{environment}}` is asked once per environment the run touches. */
export type RunValues = Partial<Record<SignalPlaceholder, string>> & {
  /** The environment id sent when no name is known for it (no `environment` then). */
  unnamedEnvironment?: string;
};

export type TextPart = string | { placeholder: SignalPlaceholder };

export interface PlaceholderText {
  source: string;
  parts: readonly TextPart[];
  /** The placeholders used, in order of first use. */
  names: readonly SignalPlaceholder[];
}

const PLACEHOLDER = /\{\{\s*([A-Za-z]+)\s*\}\}/g;

/** Whether a text fills in `{{environment}}`: its rule then needs the environment's name (the environment-names need). */
export const fillsEnvironment = (text: string): boolean => /\{\{\s*environment\s*\}\}/.test(text);

/** Parses `{{name}}` placeholders; returns the problem as text for a malformed or unknown one. */
export function parsePlaceholderText(source: string): PlaceholderText | string {
  const parts: TextPart[] = [];
  const names: SignalPlaceholder[] = [];
  let last = 0;
  for (const m of source.matchAll(PLACEHOLDER)) {
    const name = m[1] as SignalPlaceholder;
    if (!SIGNAL_PLACEHOLDERS.includes(name)) return `unknown placeholder {{${m[1]}}}; use one of ${SIGNAL_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}`;
    if (m.index > last) parts.push(source.slice(last, m.index));
    parts.push({ placeholder: name });
    if (!names.includes(name)) names.push(name);
    last = m.index + m[0].length;
  }
  if (last < source.length) parts.push(source.slice(last));
  const stray = parts.find((p): p is string => typeof p === 'string' && /\{\{|\}\}/.test(p));
  if (stray !== undefined) return `malformed placeholder in "${source}": write {{name}} with letters only, e.g. {{environment}}`;
  return { source, parts, names };
}

/** How a value is made safe where it lands: as-is, or inside a quoted string, or as a literal inside a regex. */
export type Escape = (value: string, partIndex: number) => string;

/** The text for one run, or the placeholder the run has no value for. */
export function fillText(text: PlaceholderText, values: RunValues, escape: Escape = (v) => v): { text: string } | { missing: SignalPlaceholder } {
  let out = '';
  for (let i = 0; i < text.parts.length; i++) {
    const part = text.parts[i];
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const value = values[part.placeholder];
    if (value === undefined || value === '') return { missing: part.placeholder };
    out += escape(value, i);
  }
  return { text: out };
}

/** What the run does not say, as a "cannot decide" reason names it. */
export function missingValueText(name: SignalPlaceholder, run: RunValues): string {
  switch (name) {
    case 'environment': return run.unnamedEnvironment !== undefined
      ? `no name is known for the run's environment ${run.unnamedEnvironment} (name it in an EnvironmentAliases document, or let the Steadybit Platform API name it; the id itself is never filled in, no label carries it)`
      : 'the payload names no environment (execution.environment is missing)';
    case 'team': return 'the payload names no team (execution.teamKey is missing)';
    case 'experimentKey': return 'the payload names no experiment (execution.experimentKey is missing)';
    case 'executionId': return 'the payload has no execution id (execution.id is missing)';
  }
}

/** Escapes every regular-expression metacharacter (RE2 and JavaScript agree on these). */
export function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
