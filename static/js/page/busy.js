// A task's button while the task runs (Check, Run): disabled and saying what it does, its Stop shown;
// all as it was once the task ends, however it ends.

import { t } from "../shared/i18n.js";

// Run task(labels) with button busy. labels.waiting() says the task waits for Python; labels.running(),
// that Python has taken it (the button says `doing` again). Resolves as task does.
export async function whileBusy({ button, stop, idle, doing }, task) {
  button.disabled = true;
  button.textContent = doing;
  stop.hidden = false;
  const say = (text) => () => button.textContent !== text && (button.textContent = text);
  try {
    return await task({ waiting: say(t("Waiting for Python…")), running: say(doing) });
  } finally {
    button.disabled = false;
    button.textContent = idle;
    stop.hidden = true;
  }
}

// A Stop button says "Stopping…" while the runtime stops the task (aria-disabled, not disabled: it keeps
// the keyboard's focus; a second press does nothing). signal: the page's life (it ends when the page
// moves to another exercise, page/course-nav.js).
export function showStopping(runtime, stop, signal) {
  runtime.addEventListener("status", ({ detail: { state } }) => {
    const stopping = state === "stopping";
    stop.setAttribute("aria-disabled", String(stopping));
    const text = stopping ? t("Stopping…") : t("Stop");
    if (stop.textContent !== text) stop.textContent = text;
  }, { signal });
}
