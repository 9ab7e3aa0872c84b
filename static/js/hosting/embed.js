// embed.js, for a course page that shows the backprop playground in an iframe. Load it from the
// playground, beside its page, before the iframe:
//
//   <script src="https://play.example.org/courses/ml/backprop/embed.js"></script>
//   <iframe src="https://play.example.org/courses/ml/backprop/" title="Backpropagation exercise"
//           allow="cross-origin-isolated" style="width: 100%; height: 900px; border: 0"></iframe>
//
// It listens for the playground's messages, only from the origin it was itself loaded from and only
// from an iframe of this page, then sizes that iframe to the page inside it, and dispatches each
// message as a DOM event on the iframe element (bubbling): playground-ready, playground-checked,
// playground-resize, with the message in event.detail.
//
//   iframe.addEventListener("playground-checked", (event) => { if (event.detail.passed) ... });
//
// Messages: { type: "backprop-playground:ready" | ":checked" | ":resize", version: 1, ... }
// (the playground's docs/course-page.md documents them).
(() => {
  const PREFIX = {{ events|tojson }}; // filled in by the server (server/page/names.py)
  const VERSION = 1;
  const NAMES = ["ready", "checked", "resize"];
  const MAX_HEIGHT = 100000; // px: anything taller is not a height the playground would send
  const script = document.currentScript;
  if (!script) return; // loaded as a module or injected: no src to take the playground's origin from
  const playground = new URL(script.src, document.baseURI).origin;
  const installed = (window.backpropPlaygroundEmbeds ??= new Set());
  if (installed.has(playground)) return; // included twice: each event once
  installed.add(playground);

  const frameOf = (source) => Array.from(document.getElementsByTagName("iframe")).find((f) => f.contentWindow === source);

  // The iframe's box is its inner height plus its padding and borders when the course page sizes
  // boxes with box-sizing: border-box.
  function setHeight(iframe, height) {
    const style = getComputedStyle(iframe);
    const extra =
      style.boxSizing === "border-box"
        ? ["borderTopWidth", "borderBottomWidth", "paddingTop", "paddingBottom"].reduce((sum, p) => sum + parseFloat(style[p]), 0)
        : 0;
    iframe.style.height = `${height + extra}px`;
  }

  window.addEventListener("message", (event) => {
    if (event.origin !== playground) return;
    const data = event.data;
    if (!data || typeof data.type !== "string" || !data.type.startsWith(PREFIX) || data.version !== VERSION) return;
    const name = data.type.slice(PREFIX.length);
    const iframe = frameOf(event.source);
    if (!NAMES.includes(name) || !iframe) return;
    if (name === "resize") {
      if (!Number.isInteger(data.height) || data.height <= 0 || data.height > MAX_HEIGHT) return;
      setHeight(iframe, data.height);
    }
    iframe.dispatchEvent(new CustomEvent(`playground-${name}`, { detail: data, bubbles: true }));
  });
})();
