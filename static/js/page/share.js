// Share links: "Copy link" puts the code and the scratch pad in the URL's fragment, deflated and
// versioned (#code/1/<base64url>), so it never reaches any server. Opening such a link shows the shared
// code and asks before it replaces the learner's own; declining keeps theirs. Nothing runs by itself.

import { $ } from "../shared/dom.js";
import { count } from "../shared/format.js";

const PREFIX = "#code/";
const VERSION = "1"; // the fragment's format: a later one can still read this one

async function through(stream, bytes) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
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

// { code, scratch } from a fragment; null when it is not a share link; throws when it is a broken one.
export async function decode(hash) {
  if (!hash.startsWith(PREFIX)) return null;
  const [version, data] = hash.slice(PREFIX.length).split("/", 2);
  if (version !== VERSION) throw new Error(`it is of a format this page does not know (${version})`);
  const json = new TextDecoder("utf-8", { fatal: true }).decode(
    await through(new DecompressionStream("deflate-raw"), fromBase64Url(data ?? "")),
  );
  const shared = JSON.parse(json);
  if (typeof shared?.code !== "string" || typeof shared.scratch !== "string") throw new Error("it holds no code");
  return shared;
}

// Wire "Copy link", and offer the code of the link the page was opened with.
// code: the main editor ({ getCode, setCode, focus }); scratch: the scratch pad's ({ getCode, setCode }).
export function setupShare({ code, scratch }) {
  const status = $("share-status");
  $("share").addEventListener("click", async () => {
    const url = new URL(location.href);
    url.hash = await encode({ code: code.getCode(), scratch: scratch.getCode() });
    try {
      await navigator.clipboard.writeText(url.href);
      status.textContent = `Link copied (${count(url.href.length)} characters): it holds your code and scratch pad.`;
    } catch {
      history.replaceState(null, "", url.href); // no clipboard here: the address bar has the link
      status.textContent = "This browser would not copy it: the link is in the address bar now.";
    }
  });
  return offerShared({ code, scratch });
}

async function offerShared({ code, scratch }) {
  let shared;
  try {
    shared = await decode(location.hash);
  } catch (err) {
    $("share-status").textContent = `The link's code could not be read (${err.message}); your own code is unchanged.`;
    return null;
  }
  if (!shared) return null;
  const clear = () => history.replaceState(null, "", location.pathname + location.search);
  if (shared.code === code.getCode() && shared.scratch === scratch.getCode()) return clear(); // nothing to ask
  const box = $("shared");
  $("shared-what").textContent =
    `${count(shared.code.split("\n").length)} lines for the editor and ${count(shared.scratch.split("\n").length)} for ` +
    "the scratch pad. Use it instead of your own code? Nothing runs until you press Check or Run.";
  $("shared-text").textContent = `${shared.code}\n# --- scratch pad ---\n${shared.scratch}`;
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
