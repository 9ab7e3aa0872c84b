// What the learner sees of the runtime's start: the status line, a progress bar with the bytes
// received of those expected, and Retry in place when the load fails (no reload: the code stays).

import { $ } from "../shared/dom.js";
import { megabytes } from "../shared/format.js";

export function showLoad(runtime) {
  const status = $("runtime-status");
  const bar = $("load-progress");
  const bytes = $("load-bytes");
  const retry = $("retry");
  let noted = false; // the console's note on Stop, once
  retry.addEventListener("click", () => {
    status.focus(); // Retry hides itself: the keyboard stays where the news is
    runtime.start().catch(() => {});
  });

  return {
    state(state, detail) {
      status.dataset.state = state;
      status.dataset.stop = runtime.stopMode;
      if (state === "ready") status.dataset.start = runtime.startedFrom;
      // A hosting fact, for whoever hosts or embeds the page (docs/troubleshooting.md): the console's, not
      // the learner's; data-stop says it to scripts.
      if (state === "ready" && runtime.stopMode === "restart" && !noted) {
        noted = true;
        console.info(
          "backprop playground: this page is not cross-origin isolated, so Stop and the time limit end the " +
            "runtime without naming the line it was running. Send the headers in docs/hosting.md to interrupt Python instead.",
        );
      }
      status.textContent = {
        loading: "Loading the Python runtime… you can edit meanwhile.",
        ready: "Python runtime ready.",
        failed: `${detail ?? "The Python runtime could not load."} Your code is kept: press Retry to try again.`,
      }[state];
      $("load").hidden = state !== "loading";
      retry.hidden = state !== "failed";
      if (state === "loading") this.progress(0, 0);
    },
    // Whether the next Check starts at once ("ready") or waits for its fresh runtime ("loading"), and
    // whether that runtime shares the runner frame's compiled WebAssembly ("shared") or compiled its own.
    next(state, python) {
      status.dataset.fresh = state;
      if (python) status.dataset.wasm = python.sharedWasm ? "shared" : "compiled";
    },
    progress(received, expected) {
      const total = Math.max(received, expected);
      if (!received) bar.removeAttribute("value"); // indeterminate until the first bytes
      else [bar.max, bar.value] = [total, received];
      bytes.textContent = total ? `${megabytes(received)} of ${megabytes(total)} MB` : "";
    },
  };
}
