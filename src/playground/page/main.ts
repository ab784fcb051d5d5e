import type { EditorView } from '@codemirror/view';
import { decidePlayground, type PlaygroundProblem, type PlaygroundResult } from '../decide-playground';
import type { PlaygroundInput } from '../playground-input';
import { readShareFragment, shareFragment } from '../share-link';
import { diagnosticAt, jsonEditor, reveal, setProblems, setText, yamlEditor } from './editors';
import { locateJsonPath, readJsonPart } from './json-part';
import { renderResult } from './render-result';
import examplePayload from '../../payload/spec-execution-example-as-preflight.json';
import starterPolicy from './starter-policy.yaml';

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const STARTER_NAME = 'prod-attack-limits.yaml';
const pretty = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** The page: policy files (one editor each), the payload, now, the facts; the result beside them. */
class Playground {
  private readonly files = new Map<string, EditorView>();
  private selected = '';
  private readonly payload: EditorView;
  private readonly facts: EditorView;
  private readonly now = byId<HTMLInputElement>('now');
  private pending: number | undefined;
  private loading = false;

  constructor() {
    const changed = () => this.schedule();
    this.payload = jsonEditor(byId('payload-editor'), '', 'Payload (JSON)', changed);
    this.facts = jsonEditor(byId('facts-editor'), '{}', 'Facts (JSON)', changed);
    this.now.addEventListener('input', changed);
    byId('example-payload').addEventListener('click', () => setText(this.payload, pretty(examplePayload)));
    byId('add-file').addEventListener('click', () => this.addFile());
    byId('remove-file').addEventListener('click', () => this.removeFile());
    byId('rename-file').addEventListener('click', () => this.renameFile());
    byId('file-name').addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.renameFile();
    });
    byId('copy-link').addEventListener('click', () => this.copyLink());
    window.addEventListener('hashchange', () => this.openFragment(location.hash));
  }

  /** Opens the link's input, else the starter: the README's policy and Steadybit's example payload. */
  start(): void {
    if (location.hash.length > 1) this.openFragment(location.hash);
    else
      this.load({
        policies: { [STARTER_NAME]: starterPolicy },
        payload: examplePayload,
        now: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        // Steadybit sends environment ids; the service learns their names from the Platform API.
        facts: { environments: { [examplePayload.execution.environment]: { name: 'production' } } },
      });
  }

  private openFragment(fragment: string): void {
    const read = readShareFragment(fragment);
    if (read.ok) {
      if (shareFragment(this.input()) !== fragment.replace(/^#/, '')) this.load(read.input);
      return;
    }
    renderResult(
      {
        ok: false,
        status: undefined,
        message: 'no decision: this link cannot be opened',
        problems: [{ part: 'policies', file: '(link)', line: 1, col: 1, message: read.message, severity: 'error' }],
      },
      () => undefined,
    );
  }

  private load(input: PlaygroundInput): void {
    this.loading = true;
    for (const name of [...this.files.keys()]) this.dropEditor(name);
    for (const [name, text] of Object.entries(input.policies)) this.addEditor(name, text);
    this.select(Object.keys(input.policies)[0] ?? '');
    setText(this.payload, pretty(input.payload));
    setText(this.facts, pretty(input.facts));
    this.now.value = input.now;
    this.loading = false;
    this.decide();
  }

  private addEditor(name: string, text: string): void {
    const holder = document.createElement('div');
    holder.className = 'editor';
    holder.dataset.file = name;
    byId('policy-editors').append(holder);
    this.files.set(
      name,
      yamlEditor(holder, text, `Policy file ${name} (YAML)`, () => this.schedule()),
    );
  }

  private dropEditor(name: string): void {
    this.files.get(name)?.destroy();
    this.files.delete(name);
    byId('policy-editors')
      .querySelector(`[data-file="${CSS.escape(name)}"]`)
      ?.remove();
  }

  private select(name: string): void {
    this.selected = name;
    for (const holder of byId('policy-editors').querySelectorAll<HTMLElement>('[data-file]'))
      holder.hidden = holder.dataset.file !== name;
    byId<HTMLInputElement>('file-name').value = name;
    this.renderTabs();
  }

  private renderTabs(errors: ReadonlySet<string> = new Set()): void {
    const tabs = [...this.files.keys()].map((name) => {
      const tab = document.createElement('button');
      tab.type = 'button';
      tab.textContent = name;
      tab.setAttribute('aria-pressed', String(name === this.selected));
      if (errors.has(name)) tab.classList.add('has-errors');
      tab.addEventListener('click', () => this.select(name));
      return tab;
    });
    byId('file-tabs').replaceChildren(...tabs);
  }

  private nameProblem(name: string): string {
    if (!/\.ya?ml$/i.test(name)) return 'a policy file name ends in .yaml or .yml';
    if (/\.test\.ya?ml$/i.test(name)) return 'a *.test.yaml file is a test suite, not a policy file';
    if (this.files.has(name)) return `there is already a file named ${name}`;
    return '';
  }

  private addFile(): void {
    let n = this.files.size + 1;
    while (this.files.has(`policy-${n}.yaml`)) n++;
    const name = `policy-${n}.yaml`;
    this.addEditor(name, `kind: Policy\nname: policy-${n}\nrules:\n  - `);
    this.select(name);
    this.decide();
    this.files.get(name)?.focus();
  }

  private removeFile(): void {
    if (!this.files.has(this.selected)) return;
    this.dropEditor(this.selected);
    this.select([...this.files.keys()][0] ?? '');
    this.decide();
  }

  private renameFile(): void {
    const name = byId<HTMLInputElement>('file-name').value.trim();
    if (name === this.selected) return;
    const problem = this.nameProblem(name);
    byId('file-name-problem').textContent = problem;
    const view = this.files.get(this.selected);
    if (problem || !view) return;
    const text = view.state.doc.toString();
    this.dropEditor(this.selected);
    this.addEditor(name, text);
    this.select(name);
    this.decide();
  }

  private schedule(): void {
    if (this.loading) return;
    window.clearTimeout(this.pending);
    this.pending = window.setTimeout(() => this.decide(), 120);
  }

  /** The input as the editors hold it; an editor whose text is not JSON gives its text. */
  private input(): PlaygroundInput {
    const payload = readJsonPart(this.payload.state.doc.toString(), 'payload');
    const facts = readJsonPart(this.facts.state.doc.toString(), 'facts');
    const policies = Object.fromEntries([...this.files].map(([name, view]) => [name, view.state.doc.toString()]));
    return {
      policies,
      payload: payload.ok ? payload.value : payload.text,
      now: this.now.value,
      facts: facts.ok ? facts.value : facts.text,
    };
  }

  /** Decides on the input, shows it, marks the problems in their editors and puts the input in the address. */
  private decide(): void {
    const input = this.input();
    const payload = readJsonPart(this.payload.state.doc.toString(), 'payload');
    const facts = readJsonPart(this.facts.state.doc.toString(), 'facts');
    let result: PlaygroundResult = decidePlayground(input);
    const unparsed = [payload, facts].flatMap((p) => (p.ok ? [] : [p.problem]));
    if (unparsed.length > 0 && !result.ok) {
      // The text is not JSON: its syntax error replaces the engine's "must be object" about it.
      const kept = result.problems.filter((p) => !unparsed.some((u) => u.part === p.part));
      result = { ...result, status: payload.ok ? result.status : 400, problems: [...unparsed, ...kept] };
    }
    renderResult(result, (p) => this.reveal(p));
    this.markProblems(result.ok ? result.warnings : result.problems);
    byId('now-problem').textContent = (result.ok ? [] : result.problems)
      .filter((p) => p.part === 'now')
      .map((p) => p.message)
      .join('; ');
    const fragment = shareFragment(input);
    history.replaceState(null, '', `#${fragment}`);
    byId('result').dataset.fragment = fragment;
  }

  private markProblems(problems: readonly PlaygroundProblem[]): void {
    const withFile = new Set(problems.filter((p) => p.severity === 'error').map((p) => p.file ?? ''));
    for (const [name, view] of this.files)
      setProblems(
        view,
        problems
          .filter((p) => p.part === 'policies' && p.file === name)
          .map((p) => diagnosticAt(view, p.line ?? 1, p.col ?? 1, p.message, p.severity)),
      );
    for (const [part, view] of [
      ['payload', this.payload],
      ['facts', this.facts],
    ] as const) {
      setProblems(
        view,
        problems
          .filter((p) => p.part === part)
          .map((p) => {
            const at =
              p.line === undefined
                ? locateJsonPath(view.state.doc.toString(), p.path ?? '')
                : { line: p.line, col: p.col ?? 1 };
            return diagnosticAt(view, at.line, at.col, p.path ? `${p.path}: ${p.message}` : p.message, p.severity);
          }),
      );
    }
    this.renderTabs(withFile);
  }

  private reveal(p: PlaygroundProblem): void {
    if (p.part === 'now') {
      this.now.focus();
      return;
    }
    if (p.part === 'policies') {
      const view = p.file === undefined ? undefined : this.files.get(p.file);
      if (!view || p.file === undefined) return;
      this.select(p.file);
      reveal(view, p.line ?? 1, p.col ?? 1);
      return;
    }
    const view = p.part === 'payload' ? this.payload : this.facts;
    const at =
      p.line === undefined
        ? locateJsonPath(view.state.doc.toString(), p.path ?? '')
        : { line: p.line, col: p.col ?? 1 };
    reveal(view, at.line, at.col);
  }

  private copyLink(): void {
    const done = (text: string) => (byId('copied').textContent = text);
    navigator.clipboard?.writeText(location.href).then(
      () => done('Link copied.'),
      () => done('Copy the address bar: it holds the link.'),
    ) ?? done('Copy the address bar: it holds the link.');
  }
}

new Playground().start();
