// Not bundled: server/first_paint.py puts this script inline right after the editor's <textarea>, and the
// page's policy allows it by its hash. It runs as the page is parsed, before the textarea is first painted,
// so the code this browser saved is there before the learner's first key, and the textarea and the "Wrap
// long lines" checkbox are as the learner left them. Storage may be blocked: then the starter stays, wrapped.
// page/plain-editor.js and page/wrap.js do the same where this script did not run (a replaced policy).
try {
  const { key, wrap } = document.currentScript.dataset;
  const code = localStorage.getItem(key);
  if (code !== null) document.getElementById("code").value = code;
  if (localStorage.getItem(wrap) === "off") {
    document.getElementById("code").wrap = "off";
    document.getElementById("wrap").checked = false;
  }
} catch {}
