import { autocompletion, closeBrackets, completionKeymap, type CompletionSource } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { editorSchema } from '../../policy/compile/document-schema';
import { schemaCompletions, type SchemaNode } from '../schema-completion';

const schema = editorSchema() as SchemaNode;

/** Completion of keys and values from the editor schema (`preflight-gate schema`). */
const policyCompletion: CompletionSource = (context) => {
  const found = schemaCompletions(schema, context.state.doc.toString(), context.pos);
  const typed = context.state.sliceDoc(found.from, context.pos);
  if (!context.explicit && typed === '' && !/:\s$|^\s*(- )?$/.test(context.state.doc.lineAt(context.pos).text))
    return null;
  return found.options.length === 0 ? null : { from: found.from, options: found.options, validFor: /^[\w.-]*$/ };
};

/**
 * The editing basics, without Tab bound to indentation: Tab and Shift-Tab keep moving the focus
 * between the page's controls (no keyboard trap); Escape closes a completion list.
 */
function basics(label: string, onChange: () => void): Extension[] {
  return [
    lineNumbers(),
    highlightActiveLine(),
    history(),
    bracketMatching(),
    closeBrackets(),
    syntaxHighlighting(defaultHighlightStyle),
    lintGutter(),
    keymap.of([...defaultKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap]),
    EditorView.lineWrapping,
    EditorView.contentAttributes.of({ 'aria-label': label }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) onChange();
    }),
  ];
}

/** A YAML editor for one policy file: schema completion; problems are set from the loader's (setProblems). */
export function yamlEditor(parent: HTMLElement, text: string, label: string, onChange: () => void): EditorView {
  const extensions = [...basics(label, onChange), yaml(), autocompletion({ override: [policyCompletion] })];
  return new EditorView({ parent, state: EditorState.create({ doc: text, extensions }) });
}

/** A JSON editor (payload, facts). */
export function jsonEditor(parent: HTMLElement, text: string, label: string, onChange: () => void): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({ doc: text, extensions: [...basics(label, onChange), json()] }),
  });
}

/** A problem at a 1-based line and column, marked to the end of its line. */
export function diagnosticAt(
  view: EditorView,
  line: number,
  col: number,
  message: string,
  severity: 'error' | 'warning',
): Diagnostic {
  const doc = view.state.doc;
  const at = doc.line(Math.min(Math.max(line, 1), doc.lines));
  const from = Math.min(at.from + Math.max(col - 1, 0), at.to);
  return { from, to: Math.max(at.to, from), severity, message };
}

/** Replaces the problems an editor shows. */
export function setProblems(view: EditorView, diagnostics: readonly Diagnostic[]): void {
  view.dispatch(setDiagnostics(view.state, diagnostics));
}

/** Replaces an editor's whole text (a link opened, the example payload chosen). */
export function setText(view: EditorView, text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/** Puts the cursor at a 1-based line and column and focuses the editor. */
export function reveal(view: EditorView, line: number, col: number): void {
  const d = diagnosticAt(view, line, col, '', 'error');
  view.dispatch({ selection: { anchor: d.from }, scrollIntoView: true });
  view.focus();
}
