// Not bundled: server/first_paint.py puts this script inline right after the editor's <textarea>, and the
// page's policy allows it by its hash. It runs as the page is parsed, before the textarea is first painted,
// so the code this browser saved is there before the learner's first key. Storage may be blocked: then the
// starter stays. page/plain-editor.js does the same where this script did not run (a replaced policy).
try {
  const code = localStorage.getItem(document.currentScript.dataset.key);
  if (code !== null) document.getElementById("code").value = code;
} catch {}
