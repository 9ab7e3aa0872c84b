// The scratch pad: the learner's own Python, with their backward first (a checkbox), Run and Stop, what
// it printed and the graphs it drew. A Run is never a Check: no attempt, no event, no verdict.

import { picture } from "../picture/picture.js";
import NAMES from "../shared/names.json" with { type: "json" };
import { $, el } from "../shared/dom.js";
import { number, t, tn } from "../shared/i18n.js";
import { read, write } from "../shared/storage.js";
import { ask } from "./ask.js";
import { showStopping, whileBusy } from "./busy.js";
import { renderError, renderOutput } from "./report.js";

// One drawing: its picture, open and titled with where draw() was called.
// yours: what the editor's code is called in a drawing's title and an error's place ("your backward" for
// the seed's exercise, "your code" for another).
function drawingOf(drawing, index, caps, yours) {
  const label = typeof drawing.label === "string" && drawing.label.length <= caps.label ? drawing.label : null;
  const name = label ?? t("drawing {n}", { n: number(index + 1) });
  const at = { name, line: number(drawing.line) };
  const inYours = yours === "backward" ? t("draw({name}), line {line} of your backward", at) : t("draw({name}), line {line} of your code", at);
  const title = drawing.file === "editor" ? inYours : t("draw({name}), line {line}", at);
  const expr = { name, graph: drawing.nodes && { case: 0, out: drawing.out, nodes: drawing.nodes, calls: drawing.calls }, size: drawing.size };
  const figure = picture(expr, true, { testid: "drawing", title, graded: false });
  figure.dataset.line = String(drawing.line);
  return figure;
}

// Show a Run's result: output, error (its line marked where it is), drawings.
function renderRun(result, { kinds, caps, scratch, editor, yours }) {
  renderOutput($("run-output"), result.output);
  const inEditor = result.error?.file === "editor";
  const inEditorSaid = yours === "backward" ? t("your backward (marked in the editor above)") : t("your code (marked in the editor above)");
  renderError($("run-error"), result.error, kinds, inEditor ? inEditorSaid : t("the scratch pad (marked)"));
  scratch.markLine(inEditor ? null : (result.error?.line ?? null));
  if (inEditor) editor.markLine(result.error.line);
  const drawings = $("drawings");
  const drawn = result.drawings.slice(0, caps.drawings); // never more than the cap, whatever came
  const cut = (Number.isInteger(result.cut_drawings) ? result.cut_drawings : 0) + result.drawings.length - drawn.length;
  drawings.replaceChildren(...drawn.map((drawing, i) => drawingOf(drawing, i, caps, yours)));
  if (cut) {
    const most = { most: number(caps.drawings) };
    const more = tn("{n} more draw() call was not drawn ({most} at most in one Run).", "{n} more draw() calls were not drawn ({most} at most in one Run).", cut, most);
    drawings.append(el("p", { class: "note", text: more }));
  }
  const ms = { ms: number(Math.round(result.ms)) };
  $("run-status").textContent = result.error
    ? drawn.length
      ? tn("The Run ended with an error, drew {n} graph: see below.", "The Run ended with an error, drew {n} graphs: see below.", drawn.length)
      : t("The Run ended with an error: see below.")
    : drawn.length
      ? tn("Ran in {ms} ms, drew {n} graph.", "Ran in {ms} ms, drew {n} graphs.", drawn.length, ms)
      : t("Ran in {ms} ms.", ms);
}

// Set up the scratch pad; enqueue(task) runs a task after any Check or Run under way.
export function setupScratch({ config, runtime, editor, createEditor, enqueue, keepFocus, signal }) {
  const key = NAMES.storage.scratch;
  const scratch = createEditor($("scratch"), read(key) ?? config.scratch.starter, {
    onChange: (code) => write(key, code),
    onCheck: () => run(),
    label: t("Scratch pad: your own Python"),
    describedBy: "scratch-keys",
  });
  const runButton = $("run");
  const stopButton = $("stop-run");
  const useBackward = $("use-backward");
  // Run is disabled while it runs and Stop hidden when it ends: the keyboard goes to the other one.
  keepFocus([
    [runButton, stopButton, scratch.view.contentDOM],
    [stopButton, runButton, scratch.view.contentDOM],
  ]);

  // Run source (default: the scratch pad's code), render what it did, resolve to the Run's result
  // (engine/report.py's "run": output, error, drawings, cut_drawings, ms). A source given is put in
  // the scratch pad first, so its marks are on what ran.
  function run(source) {
    return enqueue(async () => {
      if (source !== undefined && source !== scratch.getCode()) scratch.setCode(source);
      const code = scratch.getCode();
      write(key, code); // kept before it runs, as the editor's code is
      $("run-status").textContent = "";
      return whileBusy({ button: runButton, stop: stopButton, idle: t("Run"), doing: t("Running…") }, async (labels) => {
        const input = { scratch: code, backward: useBackward.checked ? editor.getCode() : null };
        const result = await runtime.run(input, labels);
        renderRun(result, { kinds: config.report.kinds, caps: config.picture, scratch, editor, yours: config.grade.learnerWrites.join(", ") });
        return result;
      });
    });
  }

  // An example replaces the scratch pad's code once the learner agrees (nothing to lose: no question).
  $("load-preset")?.addEventListener("click", async () => { // an exercise without examples has none
    const preset = config.scratch.presets.find((p) => p.id === $("preset").value);
    const current = scratch.getCode();
    const keep = current.trim() && current !== preset.code && !config.scratch.presets.some((p) => p.code === current);
    const question = t("Replace the scratch pad's code with the example? It will be lost.");
    if (keep && current !== config.scratch.starter && !(await ask(question, { yes: t("Replace it"), no: t("Keep mine") }))) return;
    scratch.setCode(preset.code);
    scratch.markLine(null);
    scratch.view.focus();
  });
  runButton.addEventListener("click", () => run());
  runButton.disabled = false; // disabled in the HTML until now: a click before this would be lost
  stopButton.addEventListener("click", () => runtime.stop("stopped"));
  showStopping(runtime, stopButton, signal);
  return { run, scratch };
}
