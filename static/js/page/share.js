// Share links: "Copy link" puts the code and the scratch pad in the URL's fragment, deflated and
// versioned (#code/1/<base64url>), so it never reaches any server. The link is the public page's
// address with that fragment only: never this page's query (a course's learner token) nor a launch's
// address. Opening such a link puts the shared code in where the learner has no code of their own to lose
// (the starter, an example, nothing, or the shared code itself); otherwise it shows the shared code and
// asks before it replaces theirs, and declining keeps it. Nothing runs by itself. A link is read only up to what two sources of the
// longest code that runs can take, inflated as it streams: a larger one is refused before it is parsed.

import { $ } from "../shared/dom.js";
import { count } from "../shared/format.js";
import { t, tn } from "../shared/i18n.js";

const PREFIX = "#code/";
const VERSION = "1"; // the fragment's format: a later one can still read this one

async function through(stream, bytes) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

// The bytes a link's JSON may take: two sources of sourceChars characters, six bytes each at most
// (JSON's \u escapes), and its braces and names.
const maxBytes = (sourceChars) => 2 * 6 * sourceChars + 64;

class TooLarge extends Error {}

// The link's bytes a kilobyte at a time, each when the inflater asks for it: DecompressionStream inflates
// a whole chunk at once, and deflate's kilobyte comes out as a megabyte at most, where the whole link's
// megabyte would come out as a gigabyte before a single byte of it could be counted.
function pieces(bytes, size = 1024) {
  let at = 0;
  const pull = (controller) => (at < bytes.length ? controller.enqueue(bytes.slice(at, (at += size))) : controller.close());
  return new ReadableStream({ pull }, { highWaterMark: 0 });
}

// Inflate, stopping as soon as more than most bytes have come out.
async function inflate(bytes, most) {
  const reader = pieces(bytes).pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > most) {
      reader.cancel().catch(() => {});
      throw new TooLarge();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) all.set(chunk, (at += chunk.length) - chunk.length);
  return all;
}

const toBase64Url = (bytes) => {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
};

const fromBase64Url = (text) => {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

// The fragment for { code, scratch }.
export async function encode(shared) {
  const json = new TextEncoder().encode(JSON.stringify({ code: shared.code, scratch: shared.scratch }));
  return `${PREFIX}${VERSION}/${toBase64Url(await through(new CompressionStream("deflate-raw"), json))}`;
}

// { code, scratch } from a fragment; null when it is not a share link; throws when it is a broken one
// (or one larger than two sources of sourceChars characters could make).
export async function decode(hash, sourceChars) {
  if (!hash.startsWith(PREFIX)) return null;
  const [version, data] = hash.slice(PREFIX.length).split("/", 2);
  if (version !== VERSION) throw new Error(t("it is of a format this page does not know ({version})", { version }));
  const most = maxBytes(sourceChars);
  const tooLarge = new Error(t("it holds more than two pieces of code of {chars} characters", { chars: count(sourceChars) }));
  if ((data ?? "").length > ((most + 1024) * 4) / 3) throw tooLarge; // deflate never grows text by more
  let bytes;
  try {
    bytes = await inflate(fromBase64Url(data ?? ""), most);
  } catch (err) {
    throw err instanceof TooLarge ? tooLarge : err;
  }
  const json = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  const shared = JSON.parse(json);
  if (typeof shared?.code !== "string" || typeof shared.scratch !== "string") throw new Error(t("it holds no code"));
  if (shared.code.length > sourceChars || shared.scratch.length > sourceChars) throw tooLarge;
  return shared;
}

// Wire "Copy link", and offer the code of the link the page was opened with.
// code: the main editor ({ getCode, setCode, focus }); scratch: the scratch pad's ({ getCode, setCode });
// page: the public page's URL (config.publicPage); sourceChars: the longest code that runs; starters:
// { code: [...], scratch: [...] }, the code each editor holds that is not the learner's own.
export function setupShare({ code, scratch, page, sourceChars, starters }) {
  const status = $("share-status");
  $("share").addEventListener("click", async () => {
    const url = new URL(page || location.pathname, location.href);
    url.search = ""; // never the page's query: a course's learner token must not travel with the code
    url.hash = await encode({ code: code.getCode(), scratch: scratch.getCode() });
    try {
      await navigator.clipboard.writeText(url.href);
      status.textContent = t("Link copied ({chars} characters): it holds your code and scratch pad.", { chars: count(url.href.length) });
    } catch {
      if (url.origin === location.origin && url.pathname === location.pathname && !location.search) {
        history.replaceState(null, "", url.href); // no clipboard here: the address bar has the link
        status.textContent = t("This browser would not copy it: the link is in the address bar now.");
      } else {
        status.textContent = t("This browser would not copy it: the link is {link}", { link: url.href });
      }
    }
  });
  return offerShared({ code, scratch, sourceChars, starters });
}

// Whether an editor holds code of the learner's own that the shared code would replace.
const trimmed = (text) => text.replace(/\s+$/, "");
const ownCode = (current, shared, starters) =>
  trimmed(current) !== "" && trimmed(current) !== trimmed(shared) && !starters.some((s) => trimmed(s) === trimmed(current));

async function offerShared({ code, scratch, sourceChars, starters }) {
  let shared;
  try {
    shared = await decode(location.hash, sourceChars);
  } catch (err) {
    $("share-status").textContent = t("The link's code could not be read ({error}); your own code is unchanged.", { error: err.message });
    return null;
  }
  if (!shared) return null;
  const clear = () => history.replaceState(null, "", location.pathname + location.search);
  if (shared.code === code.getCode() && shared.scratch === scratch.getCode()) return clear(); // nothing to ask
  if (!ownCode(code.getCode(), shared.code, starters.code) && !ownCode(scratch.getCode(), shared.scratch, starters.scratch)) {
    code.setCode(shared.code); // no code of their own to lose: no question
    scratch.setCode(shared.scratch);
    clear();
    $("share-status").textContent = t("The link's code is in the editor and the scratch pad. Nothing runs until you press Check or Run.");
    return true;
  }
  const box = $("shared");
  $("shared-what").textContent = tn(
    "{n} line for the editor and {scratch} for the scratch pad. Use it instead of your own code? Nothing runs until you press Check or Run.",
    "{n} lines for the editor and {scratch} for the scratch pad. Use it instead of your own code? Nothing runs until you press Check or Run.",
    shared.code.split("\n").length,
    { scratch: count(shared.scratch.split("\n").length) },
  );
  $("shared-text").textContent = `${shared.code}\n# --- ${t("scratch pad")} ---\n${shared.scratch}`;
  box.hidden = false;
  box.focus();
  return new Promise((resolve) => {
    const decide = (use) => () => {
      if (use) {
        code.setCode(shared.code);
        scratch.setCode(shared.scratch);
      }
      box.hidden = true;
      clear();
      code.focus();
      resolve(use);
    };
    $("use-shared").addEventListener("click", decide(true), { once: true });
    $("keep-mine").addEventListener("click", decide(false), { once: true });
  });
}
