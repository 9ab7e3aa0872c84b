// The editor as the first paint shows it: the <textarea> of index.html, then CodeMirror in its place.
//
// The learner can type from the first paint on. Once CodeMirror's bundle (editor.js) has loaded, upgrade()
// puts it where the textarea was in one task: the code as it is then, the selection, the scroll position
// and the focus carry over, so keys pressed before, during and after the upgrade all arrive, in order.
// Where that bundle never loads, the textarea stays a usable editor (saved as the learner types, checked
// by Check): Tab indents, Esc then Tab leaves it, Ctrl/Cmd-Enter checks, as the note under it says.

import { t } from "../shared/i18n.js";

const INDENT = "    ";

export function plainEditor(root, saved, { onChange, onCheck }) {
  const area = root.querySelector("textarea");
  const note = root.querySelector(".editor-note");
  // The inline script (boot/restore-code.js) put the saved code (or a launched learner's last Check) in as
  // the page was parsed; where it could not run, it goes in now, unless the learner has typed already.
  if (saved !== null && area.value === area.defaultValue) area.value = saved;
  let upgraded = null; // CodeMirror's editor (editor.js), once it has taken the textarea's place

  let escaped = false; // Esc was the last key: the next Tab leaves
  area.addEventListener("input", () => onChange(area.value));
  area.addEventListener("keydown", (event) => {
    const wasEscaped = escaped;
    escaped = event.key === "Escape";
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      onCheck();
    } else if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey && !event.altKey && !wasEscaped) {
      event.preventDefault();
      // As typed (one undo step, an input event); setRangeText where execCommand is gone.
      if (!document.execCommand("insertText", false, INDENT)) {
        area.setRangeText(INDENT, area.selectionStart, area.selectionEnd, "end");
        onChange(area.value);
      }
    }
  });

  return {
    getCode: () => (upgraded ? upgraded.getCode() : area.value),
    setCode(code) {
      if (upgraded) return upgraded.setCode(code);
      area.value = code;
      onChange(code);
    },
    markLine: (line) => upgraded?.markLine(line), // the textarea has no line marks
    focus: () => (upgraded ? upgraded.view.focus() : area.focus()),
    get element() {
      return upgraded ? upgraded.view.contentDOM : area; // what has the keyboard when the editor has it
    },
    // createEditor: editor.js's. Everything from reading the textarea to focusing CodeMirror happens in
    // this one task, so no key event falls between the two: the ones queued meanwhile go to CodeMirror.
    upgrade(createEditor) {
      const focused = document.activeElement === area;
      const { value, selectionStart, selectionEnd, selectionDirection, scrollTop, scrollLeft } = area;
      const backward = selectionDirection === "backward";
      const editor = createEditor(root, value, {
        onChange,
        onCheck,
        label: area.getAttribute("aria-label"), // one home for the label: index.html
        describedBy: area.getAttribute("aria-describedby"),
      });
      editor.view.dispatch({
        selection: { anchor: backward ? selectionEnd : selectionStart, head: backward ? selectionStart : selectionEnd },
      });
      area.remove();
      note.remove();
      root.dataset.editor = "code";
      Object.assign(editor.view.scrollDOM, { scrollTop, scrollLeft });
      if (focused) editor.view.focus();
      upgraded = editor;
    },
    // The bundle did not load: the textarea is the editor for this visit, and says so.
    stayPlain() {
      note.textContent = t("Plain editor: syntax highlighting could not load. Your code is saved and checked as usual.");
      note.removeAttribute("aria-hidden"); // news now, not a passing remark
      root.dataset.editor = "failed";
    },
  };
}
