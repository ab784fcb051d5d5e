import { RuleSpecError, RuleSpecErrors } from './rule-spec-error';
import { MESSAGE_PLACEHOLDERS, type Placeholder, type Template } from './template';

const PLACEHOLDER = /\{\{\s*([A-Za-z]+)\s*\}\}/g;

/** Compiles `{{name}}` templates once, at load time; an unknown placeholder is a load error. */
export function compileTemplate(source: string, allowed: readonly string[] = MESSAGE_PLACEHOLDERS): Template {
  const parts: Array<string | { name: Placeholder }> = [];
  const unknown = new Set<string>();
  let last = 0;
  for (const m of source.matchAll(PLACEHOLDER)) {
    const name = m[1];
    if (!allowed.includes(name)) unknown.add(`{{${name}}}`);
    parts.push(source.slice(last, m.index), { name: name as Placeholder });
    last = (m.index ?? 0) + m[0].length;
  }
  parts.push(source.slice(last));
  // Every unknown and malformed placeholder at once: fixing one must not reveal the next.
  const errors: RuleSpecError[] = [];
  if (unknown.size > 0) {
    errors.push(
      new RuleSpecError(
        `unknown placeholder${unknown.size > 1 ? 's' : ''} ${[...unknown].join(', ')}; use one of ${allowed.map((a) => `{{${a}}}`).join(', ')}`,
      ),
    );
  }
  const stray = parts.find((p): p is string => typeof p === 'string' && /\{\{|\}\}/.test(p));
  if (stray !== undefined) {
    const near = /\{\{[^}]*\}?\}?|\}\}/.exec(stray)?.[0] ?? '{{';
    errors.push(
      new RuleSpecError(
        `malformed placeholder near "${near}": write {{name}} with letters only, e.g. {{experimentKey}}`,
      ),
    );
  }
  if (errors.length > 0) throw errors.length === 1 ? errors[0] : new RuleSpecErrors(errors);
  return (values) => {
    let out = '';
    for (const p of parts) out += typeof p === 'string' ? p : (values[p.name] ?? '-');
    return out;
  };
}
