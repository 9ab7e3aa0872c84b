// Not bundled: server/page/first_paint.py puts this script inline in the page's <head>, and the page's policy
// allows it by its hash. It starts reading the snapshot this browser kept for the page's build while the
// page is parsed: main.js runs only once it is, and reading from Cache Storage takes a returning visit
// 0.3-0.5 s. It only reads: runtime/page/stored-snapshot.js takes the bytes and checks them against their
// digest before anything uses them. Nothing is read where nothing was kept (a first visit).
try {
  const { cache, key, digest, name, home } = document.currentScript.dataset;
  if (localStorage.getItem(digest) !== null) {
    const url = new URL(`${cache}/${key}`, new URL(home, location.href)).href; // as stored-snapshot.js's key()
    const bytes = caches.open(cache).then((kept) => kept.match(url)).then((response) => response?.arrayBuffer() ?? null);
    bytes.catch(() => {}); // seen by stored-snapshot.js, which then reads it again
    window[name] = { url, bytes };
  }
} catch {}
