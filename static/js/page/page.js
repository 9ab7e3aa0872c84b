// The page around the runtime: editor, saved code, Check and Reset, hints, and window.playground.

import { startEvents } from "../hosting/events.js";
import { $ } from "../shared/dom.js";
import { ask } from "./ask.js";
import { showStopping, whileBusy } from "./busy.js";
import { bringIntoView, keepFocus, skipTo } from "./focus.js";
import { setupHints, setupSolution } from "./hints.js";
import { plainEditor } from "./plain-editor.js";
import { unfoldOnWideScreens } from "./statement.js";
import { setupProgress } from "./progress.js";
import { renderReport } from "./report.js";
import { setupScratch } from "./scratch.js";
import { setupShare } from "./share.js";
import NAMES from "../shared/names.json" with { type: "json" };
import { read, write } from "../shared/storage.js";
import { setupTheme } from "./theme.js";
import { setupLanguage } from "./language.js";
import { counted, passKept, verifyPass } from "./verify.js";
import { recordCheck } from "./record.js";
import { setupWrap } from "./wrap.js";
import { showGrade } from "./lti.js"; // LTI hook: the grade line in a launched page
import { t } from "../shared/i18n.js";

export { followCourse } from "./course-nav.js"; // the next exercise of the course, inside the page

const STORAGE_KEY = NAMES.storage.code;

// The "Saved" line is a live region: it changes (and is announced) only when saving starts or stops working.
let savedText = null;
function save(code) {
  savedText ??= $("saved").textContent;
  const text = write(STORAGE_KEY, code) ? savedText : t("Not saved: this browser blocks local storage.");
  if ($("saved").textContent !== text) $("saved").textContent = text;
}

// The results say when they are for an earlier version of the code: from its first change after a
// Check until the next Check (CodeRunner does the same).
let checked = null; // the code the results on show were graded for
function markStale(code) {
  const stale = $("stale");
  const is = checked !== null && code !== checked;
  if (stale.hidden === is) stale.hidden = !is;
}

// Started again for each exercise the page moves to (course-nav.js), its body new; signal ends this
// start's listeners on what outlives the body (the runtime, window, document, the system's theme).
export function startPage({ config, runtime, signal }) {
  savedText = null;
  checked = null;
  setupTheme($("theme"), signal);
  setupLanguage(document.getElementById("language"));
  unfoldOnWideScreens($("statement-more"));
  // The textarea the page was painted with, upgraded to CodeMirror (editor.js, a bundle of its own) once
  // that has loaded; where it never does, the textarea stays the editor (plain-editor.js).
  const wrapEditors = setupWrap($("wrap"), $("code")); // "Wrap long lines", for every editor
  // The code saved in this browser; where there is none, in a launched page, the learner's last Check here
  // that the server kept (boot/restore-code.js, which says so in #last-check: here, where it did not run).
  const saved = read(STORAGE_KEY);
  const lastCheck = saved === null ? (config.lti?.lastCheck ?? null) : null;
  const editor = plainEditor($("editor"), saved ?? lastCheck, {
    onChange: (code) => (save(code), markStale(code)),
    onCheck: () => check(),
  });
  if (lastCheck !== null && editor.getCode() === lastCheck) $("last-check").hidden = false;
  const codeMirror = import("./editor.js");
  codeMirror.then(
    (module) => {
      const { createEditor, createViewer } = module;
      wrapEditors(module); // before any editor is made: each is made as the learner chose
      editor.upgrade(createEditor);
      // The read-only engine after the editor is up: until then its plain text is shown.
      setTimeout(() => {
        createViewer($("engine-code"), $("engine-source").textContent, t("The engine's code (read-only)"));
        $("engine-source").remove();
      });
    },
    () => editor.stayPlain(),
  );
  const createViewer = (...args) => codeMirror.then((module) => module.createViewer(...args));
  const [skipToEditor, skipToResults] = document.querySelectorAll(".skip");
  skipTo(skipToEditor, () => editor.focus());
  skipTo(skipToResults, () => $("verdict").focus());

  // Replace the learner's code once they agree (an in-page dialog): Reset, and "Put it in the editor".
  const replaceCode = async (code, question) => {
    if (!(await ask(`${question} ${t("Your current code will be lost.")}`, { yes: t("Replace my code"), no: t("Keep my code") }))) return;
    editor.setCode(code);
    editor.markLine(null);
  };

  setupHints($("hints"));
  const progress = setupProgress($("progress"), { ordered: config.expressions.some((e) => e.role === "order"), signal });
  const events = startEvents(config.parents, config.exercise);
  setupSolution($("hints"), config.solution, { createViewer, replaceCode });

  const checkButton = $("check");
  const stopButton = $("stop");
  // Check is disabled while it runs and Stop hidden when it ends: the keyboard goes to the other one.
  keepFocus([
    [checkButton, stopButton, () => editor.element],
    [stopButton, checkButton, () => editor.element],
  ], signal);
  let queue = Promise.resolve();
  let tasks = 0; // Checks and Runs asked and not over (a Check's is over once the server verified its pass)
  // Run a task once every Check and Run before it is over; resolves (or rejects) as the task does. The
  // runtime itself refuses a task while another is under way (runtime/page/client.js): here a Check asked
  // during a Run, or window.playground.check called twice, waits its turn instead.
  const enqueue = (task) => {
    tasks += 1;
    const run = queue.then(task).finally(() => (tasks -= 1));
    queue = run.catch(() => {});
    return run;
  };

  // Grade source (default: the editor's code), render the report, resolve to it. A source given is put
  // in the editor first, so the report's marks, the stale notice and the saved code are of what ran.
  function check(source) {
    return enqueue(async () => {
      if (source !== undefined && source !== editor.getCode()) editor.setCode(source);
      const code = editor.getCode();
      save(code); // kept before it runs: a runtime that takes the tab down loses nothing
      return whileBusy({ button: checkButton, stop: stopButton, idle: t("Check"), doing: t("Checking…") }, async (labels) => {
        const report = await runtime.check(code, labels);
        const panels = { results: $("results"), verdict: $("verdict"), error: $("error"), output: $("output") };
        renderReport(panels, report, config.report.kinds, config);
        // The verdict in sight (a phone shows the editor and Check, the results below them); the focus stays
        // where it was, in the editor or on Check: the verdict is a live region, so it is heard all the same.
        bringIntoView(panels.verdict);
        editor.markLine(report.error?.line ?? null);
        checked = code;
        markStale(editor.getCode());
        const settle = (verification) => {
          showGrade($("verified"), verification); // LTI hook (lti.js)
          const confirmed = counted(report, verification); // with verification on: only the server's pass counts
          events.checked(confirmed, progress.record(confirmed), verification);
        };
        recordCheck(config.record, code, report); // records: a Check that did not pass (never awaited)
        settle(await verifyPass($("verified"), config.verify, code, report, settle)); // settled again when a kept pass is verified
        return report;
      });
    });
  }

  // The scratch pad is a CodeMirror editor: it comes with editor.js. Where that never loads, Run stays
  // disabled and the scratch pad says why; window.playground.run resolves to that error.
  const noScratchPad = t("The scratch pad needs the code editor, which could not load. Reload the page to try again.");
  const scratchPad = codeMirror.then(
    ({ createEditor }) => setupScratch({ config, runtime, editor, createEditor, enqueue, keepFocus: (rules) => keepFocus(rules, signal), signal }),
    () => (($("run-status").textContent = noScratchPad), null),
  );
  const runScratch = (pad, source) =>
    pad ? pad.run(source) : runtime.reports.failed("crash", noScratchPad, { task: "run", started: performance.now() });
  const starters = { code: [config.starter], scratch: [config.scratch.starter, ...config.scratch.presets.map((p) => p.code)] };
  const sharing = { page: config.publicPage, sourceChars: config.sourceChars, starters };
  scratchPad.then((pad) => pad && setupShare({ code: editor, scratch: pad.scratch, ...sharing }));

  checkButton.addEventListener("click", () => check());
  checkButton.disabled = false; // disabled in the HTML until now: a click before this would be lost
  stopButton.addEventListener("click", () => runtime.stop("stopped"));
  showStopping(runtime, stopButton, signal);
  $("reset").addEventListener("click", () => replaceCode(config.starter, t("Replace your code with the starter code?")));

  window.playground = {
    get ready() {
      return runtime.ready; // a new Promise after Retry
    },
    getCode: () => editor.getCode(),
    setCode: (source) => editor.setCode(String(source)),
    check: (source) => check(source === undefined ? undefined : String(source)),
    run: (source) => scratchPad.then((pad) => runScratch(pad, source === undefined ? undefined : String(source))),
  };
  runtime.loaded.then(events.ready);
  // Whether this exercise has work under way: a Check or Run asked and not over, or a pass kept to be sent
  // to the server again. The page then does not move to another exercise inside itself (course-nav.js).
  return { busy: () => tasks > 0 || passKept() };
}
