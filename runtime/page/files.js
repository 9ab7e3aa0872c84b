// The runtime's files, fetched by the page: the runner frame's opaque origin has no HTTP cache of its
// own and no service worker, so the page fetches them (from its caches when it has them, offline too)
// and hands them over as Blobs. Every byte is counted for the progress bar. No deadline while bytes
// arrive: the fetch fails when nothing has arrived for stallMs, or at once when a file cannot be fetched.

const name = (url) => new URL(url).pathname.split("/").pop();

// Fetch every URL; resolve to a Blob per key, or reject with an Error naming what failed, in the
// page's words ({ t, number }).
export async function fetchFiles(urls, { stallMs, onBytes = () => {}, words: { t, number } }) {
  const abort = new AbortController();
  let timer = null;
  const moved = () => {
    clearTimeout(timer);
    timer = setTimeout(() => abort.abort(new Error(t("nothing arrived for {seconds} s", { seconds: number(stallMs / 1000) }))), stallMs);
  };
  const one = async ([key, url]) => {
    let response;
    try {
      response = await fetch(url, { signal: abort.signal });
    } catch (err) {
      throw abort.signal.aborted ? abort.signal.reason : new Error(t("{file} could not be fetched ({error})", { file: name(url), error: err.message }));
    }
    if (!response.ok) throw new Error(t("{file} could not be fetched (HTTP {status})", { file: name(url), status: response.status }));
    const parts = [];
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read().catch((err) => {
        throw abort.signal.aborted ? abort.signal.reason : err;
      });
      if (done) break;
      parts.push(value);
      moved();
      onBytes(value.byteLength);
    }
    return [key, new Blob(parts, { type: response.headers.get("Content-Type") ?? "" })];
  };
  moved();
  try {
    return Object.fromEntries(await Promise.all(Object.entries(urls).map(one)));
  } catch (err) {
    abort.abort(err); // the other downloads stop too
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

// A worker reads one of the stdlib's lazy archives (worker/lazy_stdlib.py): only those, from their
// folder (config urls.lazyStdlib), fetched by the page (its service worker keeps them, for offline visits).
export async function readArchive(url, folder) {
  const wanted = new URL(url);
  if (!wanted.href.startsWith(folder) || !wanted.pathname.endsWith(".zip") || wanted.search || wanted.hash) {
    throw new Error("only the standard library's archives can be read");
  }
  const response = await fetch(wanted.href);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.arrayBuffer();
}
