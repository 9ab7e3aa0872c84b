// The runner frame: a sandboxed iframe (runtime/server.py) whose opaque origin hosts the workers that run
// learner code. The page hands it the runner's code once, then talks to it over one MessagePort with
// runtime/protocol.js's messages. Nothing from the frame is trusted beyond the shapes the client handles;
// a frame that stops answering is removed whole, with every worker in it.

import { FROM_RUNNER } from "../protocol.js";

// Create the frame and start the runner in it; resolves once it answers, to { port, isolated (whether
// Stop can interrupt Python), broken (the Error it was removed with, once), remove(error) }. Every later
// message from the runner goes to onMessage(frame, data). Where the frame cannot start (a policy that
// does not allow its script, say), nothing runs anywhere else: the load fails after waitMs, saying so.
// hello: what the frame's one inline script posts first (runtime/server.py); words: the page's t().
export async function openFrame({ document: doc, runnerCode, waitMs, onMessage, hello: HELLO, words: { t } }) {
  const iframe = document.createElement("iframe");
  iframe.sandbox = "allow-scripts"; // no allow-same-origin: an opaque origin, no storage of the page's
  iframe.allow = "cross-origin-isolated *";
  iframe.title = t("Python runner");
  iframe.hidden = true;
  iframe.tabIndex = -1;
  iframe.setAttribute("aria-hidden", "true");
  iframe.srcdoc = doc;
  const channel = new MessageChannel();
  const frame = { port: channel.port1, isolated: false, broken: null };
  frame.remove = (error) => {
    if (frame.broken) return;
    frame.broken = error;
    iframe.remove();
    channel.port1.close();
  };
  const hello = new Promise((resolve, reject) => {
    const listen = (event) => {
      if (event.source !== iframe.contentWindow || event.data !== HELLO) return;
      removeEventListener("message", listen);
      runnerCode.then(
        (runner) => iframe.contentWindow.postMessage({ runner }, "*", [channel.port2]), // its origin is opaque: "*"
        reject,
      );
    };
    addEventListener("message", listen);
    channel.port1.onmessage = ({ data }) => {
      if (data?.type === FROM_RUNNER.hello) resolve(Boolean(data.isolated));
      else reject(new Error(data?.message ? t("the runner did not start ({error})", { error: data.message }) : t("the runner did not start")));
    };
  });
  document.documentElement.append(iframe);
  let timer = null;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => {
      // The learner's words on the page; the likely cause, for whoever hosts it, in the console.
      console.error(
        "backprop playground: the runner frame did not start. A replaced PLAYGROUND_CONTENT_SECURITY_POLICY must " +
          "keep the default policy's hashes and blob: (docs/troubleshooting.md, \"The runtime does not load\").",
      );
      reject(new Error(t("the sandboxed frame that runs your code did not start")));
    }, waitMs);
  });
  try {
    frame.isolated = await Promise.race([hello, late]);
  } catch (err) {
    iframe.remove();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  channel.port1.onmessage = ({ data }) => onMessage(frame, data);
  return frame;
}
