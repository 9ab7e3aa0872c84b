// The first runtime's memory, kept in this browser's Cache Storage for the learner's next visit:
// a runtime restored from it is ready in well under a second, where a full start imports the
// grader again. Keyed by the build (config.snapshotKey: Pyodide's files, the grader's modules, the runner
// and its worker, which the snapshot holds; not the exercise, which a runtime loads after its restore):
// one snapshot serves every exercise's page, a new deploy makes a new key, and keeping a new snapshot
// deletes the old. The page's <head> begins reading it (read-snapshot.js); it is checked here.
// Where Cache Storage, local storage or crypto.subtle is missing (a plain-http page not on
// localhost, say), nothing is kept and every visit starts in full; any error here means the same.
//
// Nothing kept is trusted blindly: the SHA-256 of the snapshot is kept in the page's local storage
// beside its key, and a snapshot whose bytes do not match it is deleted, never restored. (Learner code
// runs in the runner frame's opaque origin and can write neither; this is the second line.)
//
// The names are the page's (given to the client): the cache, the local storage key of the digest, and
// the global the <head>'s read is left under; and so is the local storage, with its read, write and remove.

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
const sha256 = async (bytes) => hex(await crypto.subtle.digest("SHA-256", bytes));

// The snapshot kept in this browser: names { snapshotCache, snapshotDigest, snapshotRead }; storage
// { read, write, remove } (local storage).
export class StoredSnapshot {
  constructor({ names, storage }) {
    this.cache = names.snapshotCache;
    this.digest = names.snapshotDigest; // local storage: { key, sha256 } of the kept snapshot
    this.begunAs = names.snapshotRead;
    this.storage = storage;
  }

  // The key for this build (config.snapshotKey, which the server makes from what a snapshot holds), under
  // the playground's home (config.home): the same for every exercise's page, whose snapshot it is.
  key(build, home) {
    return new URL(`${this.cache}/${build}`, new URL(home ?? "", location.href)).href;
  }

  // The snapshot kept for this build, as a Blob of bytes that match their kept digest; or null.
  // The User Timing mark is for benchmarks/load.py's timeline.
  async read(key) {
    const snapshot = await this.checked(key);
    performance.mark("runtime: snapshot read");
    return snapshot;
  }

  async checked(key) {
    try {
      const kept = JSON.parse(this.storage.read(this.digest) ?? "null");
      if (!kept) return null; // nothing kept (a first visit): Cache Storage is not even opened
      const bytes = await (this.begun(key) ?? this.bytes(key));
      if (!bytes) return null;
      if (kept.key === key && kept.sha256 === (await sha256(bytes))) return new Blob([bytes]);
      console.warn("The Python snapshot kept in this browser does not match its digest: deleted, starting in full.");
      await this.forget();
      return null;
    } catch {
      return null;
    }
  }

  // The read the page's <head> began (read-snapshot.js), taken once; null if it did not, or for another key.
  begun(key) {
    const read = window[this.begunAs];
    delete window[this.begunAs];
    return read?.url === key ? read.bytes.catch(() => this.bytes(key)) : null;
  }

  async bytes(key) {
    const response = await (await caches.open(this.cache)).match(key);
    return response ? response.arrayBuffer() : null;
  }

  // Keep a snapshot for this build, and only it, with its digest.
  async keep(key, bytes) {
    try {
      const digest = await sha256(bytes);
      const cache = await caches.open(this.cache);
      for (const old of await cache.keys()) if (old.url !== key) await cache.delete(old);
      const headers = { "Content-Type": "application/octet-stream" };
      if (!this.storage.write(this.digest, JSON.stringify({ key, sha256: digest }))) throw new Error("local storage is blocked");
      await cache.put(key, new Response(bytes, { headers })); // the bytes are copied
    } catch (err) {
      console.info("No snapshot kept for the next visit:", err?.message ?? err);
    }
  }

  // Delete the kept snapshot and its digest (one that did not match, or did not restore).
  async forget() {
    this.storage.remove(this.digest);
    try {
      await caches.delete(this.cache);
    } catch {
      // nothing kept where Cache Storage is blocked
    }
  }
}
