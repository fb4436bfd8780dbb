// The code players' editor: CodeMirror 6, bundled by scripts/web-assets.sh into dist/code/editor.js and
// loaded only by a page that shows an editor.
//
//   const editor = mountEditor(parent, 'def move(request): ...', 'python', (text) => save(text));
//   editor.markLine(3);   // a syntax error on line 3; markLine(0) clears it
//
// Keyboard: Tab and Shift-Tab indent and dedent (indentWithTab). To leave the editor with the keyboard,
// press Escape and then Tab (or Shift-Tab) within two seconds; Ctrl-M (Shift-Alt-M on macOS) toggles Tab
// between indenting and moving focus. Both are CodeMirror's own tab-focus handling, kept as it is.
import { basicSetup } from 'codemirror';
import { EditorView, keymap, Decoration } from '@codemirror/view';
import { EditorState, Compartment, StateEffect, StateField } from '@codemirror/state';
import { indentWithTab } from '@codemirror/commands';
import { indentUnit } from '@codemirror/language';
import { python } from '@codemirror/lang-python';
import { javascript } from '@codemirror/lang-javascript';

// Each language with its usual indentation (PEP 8's four spaces; two in JavaScript, as the templates).
const LANGUAGES = {
  python: () => [python(), indentUnit.of('    ')],
  javascript: () => [javascript(), indentUnit.of('  ')],
};

function languageOf(lang) {
  const make = LANGUAGES[lang];
  if (!make) throw new Error(`unknown editor language ${JSON.stringify(lang)}: use 'python' or 'javascript'`);
  return make();
}

// One marked line (a syntax error's, say), kept on its line while the text around it is edited.
const setMark = StateEffect.define();
const markedLine = Decoration.line({ class: 'cm-ga-marked', attributes: { 'aria-invalid': 'true' } });
const markField = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    marks = marks.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setMark)) marks = e.value == null ? Decoration.none : Decoration.set([markedLine.range(e.value)]);
    }
    return marks;
  },
  provide: (f) => EditorView.decorations.from(f),
});

// Neutral colours that follow the page's own (style/main.css) where it defines them; the height comes from
// the parent's CSS.
const theme = EditorView.theme({
  '&': {
    height: '100%',
    color: 'var(--ink, #1d1d1f)',
    backgroundColor: 'var(--panel, #ffffff)',
    border: '1px solid var(--muted, #5b5b66)',
    borderRadius: '4px',
    fontSize: '14px',
  },
  '&.cm-focused': { outline: '2px solid var(--focus, #ffb000)', outlineOffset: '1px' },
  '.cm-scroller': {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
    lineHeight: '1.45',
  },
  '.cm-gutters': {
    backgroundColor: 'var(--bg, #fbfaf7)',
    color: 'var(--muted, #5b5b66)',
    borderRight: '1px solid #e4e1da',
  },
  '.cm-activeLine': { backgroundColor: 'rgba(0, 0, 0, 0.035)' },
  '.cm-activeLineGutter': { backgroundColor: 'rgba(0, 0, 0, 0.06)' },
  '.cm-ga-marked': {
    backgroundColor: 'rgba(176, 0, 32, 0.12)',
    boxShadow: 'inset 3px 0 0 var(--error, #b00020)',
  },
});

/**
 * Mounts an editor in `parent` holding `doc`, highlighted as `language` ('python' | 'javascript');
 * `onChange(text)` is called after each change to the text. Returns the editor's handle.
 */
export function mountEditor(parent, doc = '', language = 'python', onChange = undefined) {
  const lang = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        basicSetup,
        keymap.of([indentWithTab]),
        lang.of(languageOf(language)),
        markField,
        theme,
        EditorView.contentAttributes.of({ 'aria-label': 'Code editor' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && onChange) onChange(u.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    /** The whole text. */
    getText: () => view.state.doc.toString(),
    /** Replaces the whole text (calls onChange; clears the marked line). */
    setText(text) {
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: String(text) },
        effects: setMark.of(null),
      });
    },
    /** Highlights the text as 'python' or 'javascript'. */
    setLanguage(language) {
      view.dispatch({ effects: lang.reconfigure(languageOf(language)) });
    },
    focus: () => view.focus(),
    /** Marks 1-based line `line` (beyond the end: the last line) and scrolls to it; 0 clears the mark. */
    markLine(line) {
      const n = Math.floor(Number(line));
      if (!(n >= 1)) {
        view.dispatch({ effects: setMark.of(null) });
        return;
      }
      const at = view.state.doc.line(Math.min(n, view.state.doc.lines)).from;
      view.dispatch({ effects: [setMark.of(at), EditorView.scrollIntoView(at, { y: 'center' })] });
    },
    destroy: () => view.destroy(),
    /** The CodeMirror view itself, for tests and anything the handle does not cover. */
    view,
  };
}
