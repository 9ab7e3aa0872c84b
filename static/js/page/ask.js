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
    let done = false;
    // The answer counts when it is clicked, before the dialog's "close" event (a task later), so whatever
    // it changes (the editor's code, say) has changed by the time the click is over.
    const finish = (yes) => {
      if (done) return;
      done = true;
      $("ask-yes").removeEventListener("click", onYes);
      $("ask-no").removeEventListener("click", onNo);
      dialog.removeEventListener("close", onClose);
      if (back?.isConnected && typeof back.focus === "function") back.focus();
      resolve(yes);
    };
    const answer = (value) => () => {
      dialog.close(value);
      finish(value === "yes");
    };
    const onYes = answer("yes");
    const onNo = answer("no");
    $("ask-yes").addEventListener("click", onYes);
    $("ask-no").addEventListener("click", onNo);
    // Esc closes it with no value: "no". A close event that finds the dialog open again belongs to the
    // question before, answered by a click.
    const onClose = () => dialog.open || finish(dialog.returnValue === "yes");
    dialog.addEventListener("close", onClose);
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
