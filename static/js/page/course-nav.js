// Moving to another exercise of the course inside the page: the course place's Previous and Next
// (templates/index.html, a[data-exercise]) and Back and Forward between the exercises moved to. The
// target page is fetched, the runtime switches to its exercise (runtime/page/client.js switchTo: Python
// is not loaded again), the page's body is replaced by the target's and started for its config. Where
// that cannot be done (a launched page, a Check or Run under way or a pass waiting to be verified, the
// runtime not ready, a page in another language than this one's, a fetch or switch that fails), the
// browser loads the target page in full, as a link does.

import { $ } from "../shared/dom.js";
import { inLanguage } from "../shared/i18n.js";
import { useExercise } from "../shared/storage.js";
import { keptLanguage } from "./language.js";

const absolute = (url) => new URL(url, document.baseURI).href;

// busy(): whether the exercise on show has work under way (page.js startPage's).
export function followCourse({ config, runtime, startPage, busy }) {
  if (config.lti) return; // a launched page: its grade and records are the launch's
  let current = config;
  let moving = false;

  // The page at url: its document, its config's text and its config.
  async function fetched(url) {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const configText = page.getElementById("config")?.textContent;
    return { page, configText, next: JSON.parse(configText) };
  }

  async function move(url, { push }) {
    if (runtime.state !== "ready" || runtime.task || busy()) throw new Error("a Check, a Run or a verification is under way");
    let { page, configText, next } = await fetched(url);
    if (next.lti || next.snapshotKey !== current.snapshotKey) throw new Error("another build or a launch");
    // The language a full load would end in (the server's, or the learner's kept choice, language.js); the
    // page's words and catalogue are its own language's: another language is loaded in full.
    const kept = keptLanguage(next, url);
    if (kept && kept === current.language?.current) {
      url = inLanguage(url, kept);
      ({ page, configText, next } = await fetched(url));
    }
    if (next.language?.current !== current.language?.current) throw new Error("another language");
    const urls = Object.fromEntries(Object.entries(next.urls).map(([k, v]) => [k, absolute(v)]));
    await runtime.switchTo({ ...next, urls });
    if (busy()) throw new Error("a Check was asked meanwhile"); // its report is of the exercise on show
    $("config").textContent = configText;
    document.title = page.title;
    useExercise(next.storage);
    document.body.replaceWith(document.adoptNode(page.body));
    if (push) history.pushState({ exercise: next.exercise }, "", url);
    current = next;
    startPage({ config: next, runtime });
    document.querySelector("h1")?.setAttribute("tabindex", "-1");
    document.querySelector("h1")?.focus();
    performance.mark("page: exercise shown", { detail: next.exercise });
  }

  const go = (url, options) => {
    moving = true;
    return move(url, options)
      .catch((err) => {
        console.info(`Loading ${url} in full (${err.message}).`);
        if (options.push) location.assign(url);
        else location.reload();
      })
      .finally(() => (moving = false));
  };

  history.replaceState({ exercise: config.exercise }, "");
  document.addEventListener("click", (event) => {
    const link = event.target.closest?.("a[data-exercise]");
    if (!link || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (new URL(link.href).origin !== location.origin) return;
    event.preventDefault();
    if (!moving) go(link.href, { push: true });
  });
  window.addEventListener("popstate", (event) => {
    if (event.state?.exercise && event.state.exercise !== current.exercise) go(location.href, { push: false });
  });
}
