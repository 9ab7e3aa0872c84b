// The first runtime's memory, kept in this browser's Cache Storage for the learner's next visit:
// a runtime restored from it is ready in well under a second, where a full start imports the
// grader again. Keyed by the build (Pyodide's files, the engine, the runner and its worker, the
// cases, which the snapshot holds): a new deploy makes a new key, and keeping a new snapshot deletes
// the old. Where Cache Storage, local storage or crypto.subtle is missing (a plain-http page not on
// localhost, say), nothing is kept and every visit starts in full; any error here means the same.
//
// Nothing kept is trusted blindly: the SHA-256 of the snapshot is kept in the page's local storage
// beside its key, and a snapshot whose bytes do not match it is deleted, never restored. (Learner code
// runs in the runner frame's opaque origin and can write neither; this is the second line.)

import NAMES from "../shared/names.json" with { type: "json" };
import { read, remove, write } from "../shared/storage.js";

const CACHE = NAMES.caches.snapshot;
const DIGEST = NAMES.storage.snapshot; // local storage: { key, sha256 } of the kept snapshot

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
const sha256 = async (bytes) => hex(await crypto.subtle.digest("SHA-256", bytes));

// The key for this build, or null where nothing can be kept.
export async function snapshotKey(urls, cases) {
  try {
    const text = JSON.stringify([urls.pyodide, urls.engine, urls.runner, urls.worker, cases]);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return new URL(`${CACHE}/${hex(digest).slice(0, 24)}`, location.href).href;
  } catch {
    return null;
  }
}

// The snapshot kept for this build, as a Blob of bytes that match their kept digest; or null.
// The User Timing mark is for benchmarks/load.py's timeline.
export async function storedSnapshot(key) {
  const snapshot = await checkedSnapshot(key);
  performance.mark("runtime: snapshot read");
  return snapshot;
}

async function checkedSnapshot(key) {
  try {
    const kept = JSON.parse(read(DIGEST) ?? "null");
    const response = key && (await (await caches.open(CACHE)).match(key));
    if (!response) return null;
    const bytes = await response.arrayBuffer();
    if (kept?.key === key && kept.sha256 === (await sha256(bytes))) return new Blob([bytes]);
    console.warn("The Python snapshot kept in this browser does not match its digest: deleted, starting in full.");
    await forgetSnapshot();
    return null;
  } catch {
    return null;
  }
}

// Keep a snapshot for this build, and only it, with its digest.
export async function keepSnapshot(key, bytes) {
  try {
    const digest = await sha256(bytes);
    const cache = await caches.open(CACHE);
    for (const old of await cache.keys()) if (old.url !== key) await cache.delete(old);
    const headers = { "Content-Type": "application/octet-stream" };
    if (!write(DIGEST, JSON.stringify({ key, sha256: digest }))) throw new Error("local storage is blocked");
    await cache.put(key, new Response(bytes, { headers })); // the bytes are copied
  } catch (err) {
    console.info("No snapshot kept for the next visit:", err?.message ?? err);
  }
}

// Delete the kept snapshot and its digest (one that did not match, or did not restore).
export async function forgetSnapshot() {
  remove(DIGEST);
  try {
    await caches.delete(CACHE);
  } catch {
    // nothing kept where Cache Storage is blocked
  }
}
