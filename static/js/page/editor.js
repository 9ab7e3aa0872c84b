// The code editor and the read-only views: CodeMirror 6, a short list of extensions.

import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { HighlightStyle, bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState, Prec, RangeSetBuilder, StateEffect, StateField, countColumn } from "@codemirror/state";
import {
  Decoration,
  EditorView,
  ViewPlugin,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { tags } from "@lezer/highlight";

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

// A wrapped line goes on at its own indentation, and a comment after its "# ": each line's hanging indent
// (--hang, in the columns of that lead) is its left padding, and its first row is pulled back by as much
// (the theme below). Only the lines on screen are decorated, as CodeMirror draws only those.
const hangs = new Map(); // columns → the line decoration that says so, made once
const hang = (columns) =>
  hangs.get(columns) ?? hangs.set(columns, Decoration.line({ attributes: { style: `--hang: ${columns}ch` } })).get(columns);
function hangingIndents(view) {
  const { doc, tabSize } = view.state;
  const marks = new RangeSetBuilder();
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to; ) {
      const line = doc.lineAt(pos);
      const lead = /^[ \t]*(?:# ?)?/.exec(line.text)[0];
      if (lead && lead.length < line.length) marks.add(line.from, line.from, hang(countColumn(lead, tabSize)));
      pos = line.to + 1;
    }
  }
  return marks.finish();
}
const hangingIndent = ViewPlugin.define(
  (view) => ({
    marks: hangingIndents(view),
    update(update) {
      if (update.docChanged || update.viewportChanged) this.marks = hangingIndents(update.view);
    },
  }),
  { decorations: (plugin) => plugin.marks },
);

// Wrapping long lines: on or off for every editor on the page at once (page/wrap.js keeps the choice).
const wrapping = new Compartment();
const views = new Set(); // every editor and viewer made here
let wrapped = true;
const wrapExtension = () => (wrapped ? [EditorView.lineWrapping, hangingIndent] : []);
export function wrapLines(on) {
  wrapped = on;
  for (const view of views) view.dispatch({ effects: wrapping.reconfigure(wrapExtension()) });
}

// Colours from the page's CSS variables (style.css), so the editors follow the light or dark theme.
const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: "var(--syn-keyword)" },
  { tag: [tags.atom, tags.bool, tags.url, tags.contentSeparator, tags.labelName], color: "var(--syn-atom)" },
  { tag: [tags.literal, tags.inserted], color: "var(--syn-number)" },
  { tag: [tags.string, tags.deleted], color: "var(--syn-string)" },
  { tag: [tags.regexp, tags.escape, tags.special(tags.string)], color: "var(--syn-escape)" },
  { tag: tags.definition(tags.variableName), color: "var(--syn-definition)" },
  { tag: tags.local(tags.variableName), color: "var(--syn-local)" },
  { tag: [tags.typeName, tags.namespace], color: "var(--syn-type)" },
  { tag: tags.className, color: "var(--syn-class)" },
  { tag: [tags.special(tags.variableName), tags.macroName], color: "var(--syn-special)" },
  { tag: tags.definition(tags.propertyName), color: "var(--syn-property)" },
  { tag: tags.comment, color: "var(--syn-comment)" },
  { tag: tags.invalid, color: "var(--syn-invalid)" },
]);
const theme = EditorView.theme({
  // containerType: the hanging indent below is capped in cqi, a share of the editor's width.
  "&": { color: "var(--fg)", backgroundColor: "var(--panel)", containerType: "inline-size" },
  ".cm-content": { caretColor: "var(--fg)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--fg)" },
  ".cm-gutters": { backgroundColor: "var(--gutter-bg)", color: "var(--muted)", borderColor: "var(--line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--active-line)", color: "var(--fg)" },
  ".cm-activeLine": { backgroundColor: "var(--active-line)" },
  ".cm-selectionBackground, &.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground": {
    background: "var(--selection)",
  },
  "&.cm-focused .cm-matchingBracket": { backgroundColor: "var(--selection)" },
  ".cm-error-line, .cm-error-line.cm-activeLine": { backgroundColor: "var(--error-line)" },
  // The hanging indent (6px: CodeMirror's own padding), at most 40 % of the editor's width (cqi) so a deep
  // indentation on a phone still leaves room for the text.
  ".cm-lineWrapping .cm-line": {
    paddingLeft: "calc(min(var(--hang, 0ch), 40cqi) + 6px)",
    textIndent: "calc(-1 * min(var(--hang, 0ch), 40cqi))",
  },
});

// tabindex: the content is focusable anyway (contenteditable); said explicitly, checkers such as axe see
// that the scrolling region around it can be reached by keyboard.
const common = () => [
  lineNumbers(),
  python(),
  syntaxHighlighting(highlight),
  theme,
  EditorView.contentAttributes.of({ tabindex: "0" }),
  wrapping.of(wrapExtension()),
];
const made = (view) => (views.add(view), view);

// The learner's editor; label and describedBy (the element that says how to leave it) for screen readers.
export function createEditor(parent, doc, { onChange, onCheck, label, describedBy }) {
  const view = made(new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        ...common(),
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
        EditorView.contentAttributes.of({ "aria-label": label, "aria-describedby": describedBy }),
      ],
    }),
  }));
  return {
    view,
    getCode: () => view.state.doc.toString(),
    setCode: (code) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: code } }),
    markLine: (line) => view.dispatch({ effects: setErrorLine.of(line ?? null) }),
  };
}

// Read-only, yet focusable: a keyboard can move through it, select, copy and scroll it.
export function createViewer(parent, doc, label) {
  return made(new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        ...common(),
        EditorState.readOnly.of(true),
        EditorView.contentAttributes.of({ "aria-label": label }),
      ],
    }),
  }));
}
