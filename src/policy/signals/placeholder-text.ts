/**
 * Text with `{{name}}` placeholders filled from the run at decision time, e.g. a matcher value
 * `{{environment}}` or a PromQL label value. Compiled once, at load time; an unknown placeholder is
 * a load error. Values are escaped for the place they land in (see `Escape`), never pasted raw.
 */
export const SIGNAL_PLACEHOLDERS = ['environment', 'team', 'experimentKey', 'executionId'] as const;
export type RunPlaceholder = (typeof SIGNAL_PLACEHOLDERS)[number];
/** `{{target.k8s.deployment}}`: each distinct value of a target attribute the run acts on (docs/attacked-services.md). */
export type TargetPlaceholder = `target.${string}`;
export type SignalPlaceholder = RunPlaceholder | TargetPlaceholder;

/**
 * One environment (and one value of each target attribute asked for) at a time: a rule with
 * `{{environment}}` is asked once per environment the run touches, one with `{{target.<key>}}` once
 * per distinct value of that attribute.
 */
export type RunValues = Partial<Record<RunPlaceholder, string>> & {
  /** The environment id sent when no name is known for it (no `environment` then). */
  unnamedEnvironment?: string;
  /** Attribute key -> one value the run's targets carry (`{{target.<key>}}`). */
  targets?: Readonly<Record<string, string>>;
};

export type TextPart = string | { placeholder: SignalPlaceholder };

export interface PlaceholderText {
  source: string;
  parts: readonly TextPart[];
  /** The placeholders used, in order of first use. */
  names: readonly SignalPlaceholder[];
}

const PLACEHOLDER = /\{\{\s*(target\.[A-Za-z0-9][A-Za-z0-9._/-]*|[A-Za-z]+)\s*\}\}/g;
const TARGET = 'target.';

/** The attribute key of a `{{target.<key>}}` placeholder, else undefined. */
export const targetKeyOf = (name: SignalPlaceholder): string | undefined =>
  name.startsWith(TARGET) ? name.slice(TARGET.length) : undefined;

/** The attribute keys a text's `{{target.<key>}}` placeholders read. */
export const targetKeysOf = (text: PlaceholderText): string[] => text.names.flatMap((n) => targetKeyOf(n) ?? []);

/** Whether a text fills in `{{environment}}`: its rule then needs the environment's name (the environment-names need). */
export const fillsEnvironment = (text: string): boolean => /\{\{\s*environment\s*\}\}/.test(text);

/** Parses `{{name}}` placeholders; returns the problem as text for a malformed or unknown one. */
export function parsePlaceholderText(source: string): PlaceholderText | string {
  const parts: TextPart[] = [];
  const names: SignalPlaceholder[] = [];
  let last = 0;
  for (const m of source.matchAll(PLACEHOLDER)) {
    const name = m[1] as SignalPlaceholder;
    if (targetKeyOf(name) === undefined && !SIGNAL_PLACEHOLDERS.includes(name as RunPlaceholder)) {
      return `unknown placeholder {{${m[1]}}}; use one of ${SIGNAL_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')} or {{target.<attribute>}}`;
    }
    if (m.index > last) parts.push(source.slice(last, m.index));
    parts.push({ placeholder: name });
    if (!names.includes(name)) names.push(name);
    last = m.index + m[0].length;
  }
  if (last < source.length) parts.push(source.slice(last));
  const stray = parts.find((p): p is string => typeof p === 'string' && /\{\{|\}\}/.test(p));
  if (stray !== undefined)
    return `malformed placeholder in "${source}": write {{name}} with letters only, e.g. {{environment}}, or {{target.<attribute>}}`;
  return { source, parts, names };
}

/** How a value is made safe where it lands: as-is, or inside a quoted string, or as a literal inside a regex. */
export type Escape = (value: string, partIndex: number) => string;

/** The text for one run, or the placeholder the run has no value for. */
export function fillText(
  text: PlaceholderText,
  values: RunValues,
  escapeValue: Escape = (v) => v,
): { text: string } | { missing: SignalPlaceholder } {
  let out = '';
  for (let i = 0; i < text.parts.length; i++) {
    const part = text.parts[i];
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const key = targetKeyOf(part.placeholder);
    const value = key === undefined ? values[part.placeholder as RunPlaceholder] : values.targets?.[key];
    if (value === undefined || value === '') return { missing: part.placeholder };
    out += escapeValue(value, i);
  }
  return { text: out };
}

/** What the run does not say, as a "cannot decide" reason names it. */
export function missingValueText(name: SignalPlaceholder, run: RunValues): string {
  const key = targetKeyOf(name);
  if (key !== undefined) return `no target of the run carries ${key}`;
  switch (name as RunPlaceholder) {
    case 'environment':
      return run.unnamedEnvironment !== undefined
        ? `no name is known for the run's environment ${run.unnamedEnvironment} (name it in an EnvironmentAliases document, or let the Steadybit Platform API name it; the id itself is never filled in, no label carries it)`
        : 'the payload names no environment (execution.environment is missing)';
    case 'team':
      return 'the payload names no team (execution.teamKey is missing)';
    case 'experimentKey':
      return 'the payload names no experiment (execution.experimentKey is missing)';
    case 'executionId':
      return 'the payload has no execution id (execution.id is missing)';
  }
}

/** Escapes every regular-expression metacharacter (RE2 and JavaScript agree on these). */
export function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
