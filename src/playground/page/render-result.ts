import type { PlaygroundProblem, PlaygroundResult } from '../decide-playground';
import type { Decision, PolicyResult } from '../../policy/core/decision';

/** Builds an element with text content and attributes (no innerHTML: every text is the user's or the engine's). */
export function el(tag: string, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/** Where a problem is, as a person reads it: `prod.yaml:3:5`, `payload execution.steps[0]`, `now`. */
export function problemPlace(p: PlaygroundProblem): string {
  if (p.part === 'policies') return `${p.file}:${p.line}:${p.col}${p.path ? ` (${p.path})` : ''}`;
  return p.path ? `${p.part} ${p.path}` : p.part;
}

function findingsList(result: PolicyResult): HTMLElement | string {
  if (!result.findings || result.findings.length === 0) return result.reasons.join('; ');
  return el(
    'ul',
    {},
    ...result.findings.map((f) => {
      const flag = f.undecidable ? ' (cannot decide)' : f.advisory ? ' (advisory)' : '';
      return el('li', {}, el('code', {}, f.rule), ` ${f.step ? `[${f.step}] ` : ''}${f.reason}${flag}`);
    }),
  );
}

function explanationTable(decision: Decision): HTMLElement {
  const rows = decision.results.map((r) =>
    el(
      'tr',
      {},
      el('td', {}, el('code', {}, r.policy), r.exception ? ` (waived by ${r.exception})` : ''),
      el('td', {}, r.mode),
      el('td', { class: `result-${r.result}` }, r.result),
      el('td', {}, findingsList(r)),
      el('td', {}, `${r.source.file}${r.source.line ? `:${r.source.line}` : ''}`),
    ),
  );
  const head = el(
    'tr',
    {},
    ...['Policy', 'Mode', 'Result', 'Rules and reasons', 'Source'].map((h) => el('th', { scope: 'col' }, h)),
  );
  return el('table', {}, el('thead', {}, head), el('tbody', {}, ...rows));
}

/** A list of problems, each a button that moves the cursor to where it is. */
function problemList(problems: readonly PlaygroundProblem[], reveal: (p: PlaygroundProblem) => void): HTMLElement {
  return el(
    'ul',
    {},
    ...problems.map((p) => {
      const go = el('button', { type: 'button', class: 'link-button' }, problemPlace(p));
      go.addEventListener('click', () => reveal(p));
      return el(
        'li',
        { class: p.severity === 'error' ? 'problem' : 'hint' },
        go,
        `: ${p.severity === 'warning' ? 'warning: ' : ''}${p.message}`,
      );
    }),
  );
}

/** Shows a result in the result section: `data-decision` is `allow` only for an allowed run (fail closed). */
export function renderResult(result: PlaygroundResult, reveal: (p: PlaygroundProblem) => void): void {
  const section = document.getElementById('result') as HTMLElement;
  const set = (id: string, ...content: Array<Node | string>) =>
    (document.getElementById(id) as HTMLElement).replaceChildren(...content);
  if (result.ok) {
    section.dataset.decision = result.decision.allowed ? 'allow' : 'deny';
    section.dataset.status = String(result.status);
    delete section.dataset.input;
    set('verdict', `${result.status} ${result.decision.allowed ? 'allow' : 'deny'}`);
    set('message', result.body.message);
    set('modifications', JSON.stringify(result.body.modifications ?? [], null, 2));
    set('explanation', explanationTable(result.decision));
    set(
      'problems',
      ...(result.warnings.length > 0 ? [el('h3', {}, 'Warnings'), problemList(result.warnings, reveal)] : []),
    );
    return;
  }
  section.dataset.decision = 'deny';
  section.dataset.status = result.status === undefined ? 'none' : String(result.status);
  section.dataset.input = 'invalid';
  set('verdict', result.status === undefined ? 'no decision (deny)' : `${result.status} deny`);
  set('message', result.message);
  set('modifications', '');
  set('explanation', '');
  set('problems', el('h3', {}, 'Problems'), problemList(result.problems, reveal));
}
