// What the learner sees of the runtime's start: the status line, a progress bar with the bytes
// received of those expected, and Retry in place when the load fails (no reload: the code stays).

import { $ } from "../shared/dom.js";
import { megabytes } from "../shared/format.js";
import { t } from "../shared/i18n.js";

export function showLoad(runtime) {
  const status = $("runtime-status");
  const bar = $("load-progress");
  const bytes = $("load-bytes");
  const retry = $("retry");
  let noted = false; // the console's note on Stop, once
  retry.addEventListener("click", () => {
    status.focus(); // Retry hides itself: the keyboard stays where the news is
    runtime.load().catch(() => {});
  });
  let shown = null; // the state last shown

  const view = {
    // The runtime's status (runtime/page/client.js): its state in data-state and in words, how Stop works
    // (data-stop), where it started from (data-start), whether the next task's runtime is ready at once
    // (data-fresh) and whether it shares the runner frame's compiled WebAssembly (data-wasm).
    show({ state, detail, fresh, wasm, start, stop }) {
      Object.assign(status.dataset, { state, stop, fresh });
      if (start) status.dataset.start = start;
      if (wasm) status.dataset.wasm = wasm;
      // A hosting fact, for whoever hosts or embeds the page (docs/troubleshooting.md): the console's, not
      // the learner's; data-stop says it to scripts.
      if (state === "ready" && stop === "restart" && !noted) {
        noted = true;
        console.info(
          "backprop playground: this page is not cross-origin isolated, so Stop and the time limit end the " +
            "runtime without naming the line it was running. Send the headers in docs/hosting.md to interrupt Python instead.",
        );
      }
      const text = {
        loading: t("Loading the Python runtime… you can edit meanwhile."),
        dead: `${detail ?? t("The Python runtime could not load.")} ${t("Your code is kept: press Retry to try again.")}`,
      }[state] ?? t("Python runtime ready."); // ready, busy, stopping: the buttons say what happens
      if (status.textContent !== text) status.textContent = text;
      $("load").hidden = state !== "loading";
      retry.hidden = state !== "dead";
      if (state === "loading" && shown !== "loading") view.progress(0, 0);
      shown = state;
    },
    progress(received, expected) {
      const total = Math.max(received, expected);
      if (!received) bar.removeAttribute("value"); // indeterminate until the first bytes
      else [bar.max, bar.value] = [total, received];
      bytes.textContent = total ? t("{received} of {total} MB", { received: megabytes(received), total: megabytes(total) }) : "";
    },
  };
  return view;
}
