// The code editor and the read-only engine view: CodeMirror 6, a short list of extensions.

import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { EditorState, Prec, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration,
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";

// The line an error points at, marked until the code changes.
const setErrorLine = StateEffect.define();
const errorLine = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const effect of tr.effects) {
      if (!effect.is(setErrorLine)) continue;
      const line = effect.value;
      if (line === null || line < 1 || line > tr.state.doc.lines) return Decoration.none;
      const from = tr.state.doc.line(line).from;
      return Decoration.set([Decoration.line({ class: "cm-error-line" }).range(from)]);
    }
    return tr.docChanged ? Decoration.none : marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const common = [lineNumbers(), python(), syntaxHighlighting(defaultHighlightStyle)];

export function createEditor(parent, doc, { onChange, onCheck }) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        ...common,
        highlightActiveLineGutter(),
        history(),
        drawSelection(),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        errorLine,
        Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => (onCheck(), true) }])),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.updateListener.of((update) => update.docChanged && onChange(update.state.doc.toString())),
        EditorView.contentAttributes.of({ "aria-label": "Your backward(out) function" }),
      ],
    }),
  });
  return {
    view,
    getCode: () => view.state.doc.toString(),
    setCode: (code) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: code } }),
    markLine: (line) => view.dispatch({ effects: setErrorLine.of(line ?? null) }),
  };
}

export function createViewer(parent, doc) {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [...common, EditorState.readOnly.of(true), EditorView.editable.of(false)],
    }),
  });
}
