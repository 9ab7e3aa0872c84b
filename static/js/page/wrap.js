// "Wrap long lines": one checkbox for every editor on the page (the code, the scratch pad, the read-only
// views, and the plain textarea until CodeMirror has taken its place). On unless the learner turned it
// off; the choice is kept in this browser (the learner's own key in a launched page: shared/storage.js).
// The inline first-paint script (boot/restore-code.js) has set the checkbox and the textarea from it
// already; this module keeps them, and CodeMirror's editors (editor.js's wrapLines), in step.

import NAMES from "../shared/names.json" with { type: "json" };
import { read, write } from "../shared/storage.js";

const WRAP_KEY = NAMES.storage.wrap; // "off"; "on" or absent: wrap

// box: the checkbox; area: the textarea. Returns a function to call with editor.js's module once it has
// loaded, before any editor is made, so each is made wrapping as the learner chose.
export function setupWrap(box, area) {
  let codeMirror = null;
  const apply = () => {
    area.wrap = box.checked ? "soft" : "off";
    codeMirror?.wrapLines(box.checked);
  };
  box.checked = read(WRAP_KEY) !== "off";
  box.addEventListener("change", () => {
    write(WRAP_KEY, box.checked ? "on" : "off"); // not remembered where storage is blocked
    apply();
  });
  apply();
  return (module) => {
    codeMirror = module;
    apply();
  };
}
