// Checks of runtime/worker/snapshot-pages.js, run by tests/runtime/test_snapshot_pages.py:
// `node tests/runtime/snapshot_pages.mjs <check>`. Prints one line of JSON with what it saw.
import { pack, unpack } from "../../runtime/worker/snapshot-pages.js";

const PAGE = 65536;

// A snapshot-like buffer: mostly zero pages, some bytes set here and there, a short last page.
function sample() {
  const bytes = new Uint8Array(40 * PAGE + 144);
  for (const at of [0, 7, 3 * PAGE + 5, 3 * PAGE + 6, 17 * PAGE - 1, 39 * PAGE, 40 * PAGE + 143]) bytes[at] = (at % 251) + 1;
  new DataView(bytes.buffer).setFloat64(20 * PAGE + 800, 0.125, true);
  return bytes;
}

const checks = {
  // Packed and unpacked: the same bytes; only the pages with something in them are kept.
  roundTrip() {
    const bytes = sample();
    const packed = pack(bytes);
    const back = unpack(packed.buffer.slice(packed.byteOffset, packed.byteOffset + packed.length));
    const same = back.length === bytes.length && back.every((b, i) => b === bytes[i]);
    return { same, length: back.length, packedPages: Math.round((packed.length - 24) / PAGE) };
  },

  // The memory's 8-byte values stay 8-byte aligned in the packed bytes (a reader scanning them finds them).
  aligned() {
    const packed = pack(sample());
    const view = new DataView(packed.buffer);
    const found = [];
    for (let i = 0; i + 8 <= packed.length; i += 8) if (view.getFloat64(i, true) === 0.125) found.push(i % 8);
    return { found };
  },

  // Whatever is not a whole packed snapshot is refused, never restored as something else.
  refused() {
    const packed = pack(sample());
    const cases = {
      "not packed": new Uint8Array(4096).fill(7),
      "cut short": packed.slice(0, packed.length - 1),
      "bytes left over": Uint8Array.from([...packed, 0]),
      empty: new Uint8Array(0),
    };
    return Object.fromEntries(
      Object.entries(cases).map(([name, bytes]) => {
        try {
          unpack(bytes.buffer);
          return [name, "restored"];
        } catch (err) {
          return [name, err.message];
        }
      }),
    );
  },
};

console.log(JSON.stringify(await checks[process.argv[2]]()));
