// A Pyodide memory snapshot kept without its zero pages. Three quarters of the 31 MB a snapshot holds are
// zeros (memory the heap has not used yet), in whole 64 kB pages: kept as they are, a returning visit read,
// hashed and copied all 31 MB before Python could start. Packed, it is about 12 MB: the pages that are not
// all zeros, after a header that says which.
//
// The layout, little-endian: "BPS1", the page size, the unpacked length, the number of pages; one bit a
// page (set: kept), padded to 8 bytes; then the kept pages in order (the last one may be short). The
// header is a multiple of 8 bytes long, so the memory's 8-byte values stay 8-byte aligned.

const MAGIC = 0x31535042; // "BPS1"
const PAGE = 65536;
const HEAD = 16;

const padded = (n) => Math.ceil(n / 8) * 8;

function isZero(bytes, start, end) {
  const words = new BigUint64Array(bytes.buffer, bytes.byteOffset + start, (end - start) >> 3);
  for (let i = 0; i < words.length; i++) if (words[i] !== 0n) return false;
  for (let i = start + (words.length << 3); i < end; i++) if (bytes[i] !== 0) return false;
  return true;
}

// Pack a snapshot (a Uint8Array whose byteOffset is a multiple of 8); returns a new Uint8Array.
export function pack(snapshot) {
  const count = Math.ceil(snapshot.length / PAGE);
  const kept = [];
  for (let page = 0; page < count; page++) {
    const start = page * PAGE;
    const end = Math.min(start + PAGE, snapshot.length);
    if (!isZero(snapshot, start, end)) kept.push(page);
  }
  const mapBytes = padded(Math.ceil(count / 8));
  const size = kept.reduce((sum, page) => sum + Math.min(PAGE, snapshot.length - page * PAGE), 0);
  const packed = new Uint8Array(HEAD + mapBytes + size);
  const head = new DataView(packed.buffer);
  [MAGIC, PAGE, snapshot.length, count].forEach((value, i) => head.setUint32(4 * i, value, true));
  let at = HEAD + mapBytes;
  for (const page of kept) {
    packed[HEAD + (page >> 3)] |= 1 << (page & 7);
    const part = snapshot.subarray(page * PAGE, Math.min((page + 1) * PAGE, snapshot.length));
    packed.set(part, at);
    at += part.length;
  }
  return packed;
}

// Unpack what pack made; throws on anything else (the runtime then starts in full).
export function unpack(buffer) {
  const packed = new Uint8Array(buffer);
  const head = new DataView(buffer);
  if (packed.length < HEAD || head.getUint32(0, true) !== MAGIC || head.getUint32(4, true) !== PAGE) {
    throw new Error("not a packed snapshot");
  }
  const length = head.getUint32(8, true);
  const count = head.getUint32(12, true);
  if (count !== Math.ceil(length / PAGE)) throw new Error("a packed snapshot with a wrong page count");
  const snapshot = new Uint8Array(length); // zeros: only the kept pages are copied in
  let at = HEAD + padded(Math.ceil(count / 8));
  for (let page = 0; page < count; page++) {
    if (!(packed[HEAD + (page >> 3)] & (1 << (page & 7)))) continue;
    const size = Math.min(PAGE, length - page * PAGE);
    if (at + size > packed.length) throw new Error("a packed snapshot cut short");
    snapshot.set(packed.subarray(at, at + size), page * PAGE);
    at += size;
  }
  if (at !== packed.length) throw new Error("a packed snapshot with bytes left over");
  return snapshot;
}
