// The first runtime's memory, kept in this browser's Cache Storage for the learner's next visit:
// a runtime restored from it is ready in well under a second, where a full start imports the
// grader again. Keyed by the build (Pyodide's files, the engine, the worker, the cases): a new
// deploy makes a new key, and keeping a new snapshot deletes the old. Where Cache Storage or
// crypto.subtle is missing (a plain-http page not on localhost, say), nothing is kept and every
// visit starts in full; any error here means the same.

const CACHE = "backprop-playground-snapshot";

// The key for this build, or null where nothing can be kept.
export async function snapshotKey(urls, cases) {
  try {
    const text = JSON.stringify([urls.pyodide, urls.engine, urls.worker, cases]);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    const hex = Array.from(new Uint8Array(digest).slice(0, 12), (b) => b.toString(16).padStart(2, "0")).join("");
    return new URL(`${CACHE}/${hex}`, location.href).href;
  } catch {
    return null;
  }
}

// The snapshot kept for this build, as a Response whose body is still to be read; or null.
// The worker reads it, while Pyodide's files arrive: the page never holds a copy it does not need.
export async function storedSnapshot(key) {
  try {
    return (key && (await (await caches.open(CACHE)).match(key))) ?? null;
  } catch {
    return null;
  }
}

// Keep a snapshot for this build, and only it.
export async function keepSnapshot(key, snapshot) {
  try {
    const cache = await caches.open(CACHE);
    for (const old of await cache.keys()) if (old.url !== key) await cache.delete(old);
    const headers = { "Content-Type": "application/octet-stream" };
    await cache.put(key, new Response(snapshot, { headers })); // the bytes are copied
  } catch (err) {
    console.info("No snapshot kept for the next visit:", err?.message ?? err);
  }
}

