// Not bundled: server/page/first_paint.py puts this script inline right after the editor's <textarea>, and the
// page's policy allows it by its hash. It runs as the page is parsed, before the textarea is first painted,
// so the code this browser saved is there before the learner's first key, and the textarea and the "Wrap
// long lines" checkbox are as the learner left them. Storage may be blocked: then the starter stays, wrapped.
// In a launched page, where this browser has none of the learner's code saved (storage blocked, or empty),
// the code of their last Check in this activity, which the server kept (config.lti.lastCheck), goes in
// instead, and the note above the editor says where it came from: code saved in this browser always wins.
// page/plain-editor.js and page/wrap.js do the same where this script did not run (a replaced policy).
(() => {
  const { key, wrap, lastCheck } = document.currentScript.dataset; // lastCheck: "" when the config has one
  const area = document.getElementById("code");
  let code = null;
  try {
    code = localStorage.getItem(key);
    if (localStorage.getItem(wrap) === "off") {
      area.wrap = "off";
      document.getElementById("wrap").checked = false;
    }
  } catch {}
  if (code === null && lastCheck !== undefined) {
    try {
      code = JSON.parse(document.getElementById("config").textContent).lti?.lastCheck ?? null;
      if (code !== null) document.getElementById("last-check").hidden = false;
    } catch {}
  }
  if (code !== null) area.value = code;
})();
