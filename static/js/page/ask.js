// Questions the page asks before it throws something away (Reset, "Put it in the editor", an example
// over the learner's own scratch code, "Clear my progress"): one native, modal <dialog> in the page
// (#ask in index.html) instead of the browser's confirm(), which a script driving the page (Playwright
// dismisses it by default) or a browser that blocks dialogs answers "no" without a word.
// The dialog takes the focus on its safe answer, Esc cancels, and the focus goes back where it was.

import { $ } from "../shared/dom.js";

let last = Promise.resolve(); // a second question waits for the first to be answered

function showOnce(question, { yes, no }) {
  const dialog = $("ask");
  return new Promise((resolve) => {
    const back = document.activeElement; // where the keyboard was
    $("ask-text").textContent = question;
    $("ask-yes").textContent = yes;
    $("ask-no").textContent = no;
    const answer = (value) => () => dialog.close(value);
    const onYes = answer("yes");
    const onNo = answer("no");
    $("ask-yes").addEventListener("click", onYes);
    $("ask-no").addEventListener("click", onNo);
    dialog.addEventListener(
      "close",
      () => {
        $("ask-yes").removeEventListener("click", onYes);
        $("ask-no").removeEventListener("click", onNo);
        if (back?.isConnected && typeof back.focus === "function") back.focus();
        resolve(dialog.returnValue === "yes"); // Esc closes it with no value: "no"
      },
      { once: true },
    );
    dialog.returnValue = "";
    dialog.showModal();
    $("ask-no").focus(); // the safe answer first: Enter keeps the learner's work
  });
}

// Ask `question`; resolves to true when the learner chose `yes`, false on `no` or Esc.
export function ask(question, labels) {
  const asked = last.then(() => showOnce(question, labels));
  last = asked.catch(() => {});
  return asked;
}
