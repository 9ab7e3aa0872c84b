// The page's language: the learner's choice in the masthead's select, kept in this browser. The server
// renders the page in a language (server/page/i18n.py: the learner's ?lang=, an LTI launch's locale, the
// course's PLAYGROUND_LANGUAGE, the browser's); a choice kept here is asked for again on the next visit.

import NAMES from "../shared/names.json" with { type: "json" };
import { inLanguage } from "../shared/i18n.js";
import { read, write } from "../shared/storage.js";

const KEY = NAMES.storage.language;

// Before anything loads: a learner who chose a language before gets it, unless this URL or a launch
// (the LMS's locale) says which. Returns true when the page is being opened again in that language.
export function followKeptLanguage(config) {
  const kept = keptLanguage(config, location.href);
  if (kept) location.replace(inLanguage(location.href, kept));
  return kept !== null;
}

// The language a page of this config at url is to be opened in again (the learner's kept choice), or
// null: it stays in its own. Also asked of the next exercise's page moved to inside the page (course-nav.js).
export function keptLanguage(config, url) {
  const kept = read(KEY);
  const { current, by, available } = config.language ?? {};
  if (!kept || kept === current || by === "learner" || by === "launch" || config.lti) return null;
  if (!available?.some((lang) => lang.code === kept)) return null;
  if (new URL(url).searchParams.has("lang")) return null; // asked already: a static copy has one language
  return kept;
}

// Switching: kept, then the page opened in that language (the code is saved as it is typed).
export function setupLanguage(select) {
  if (!select) return;
  select.addEventListener("change", () => {
    write(KEY, select.value);
    location.assign(inLanguage(location.href, select.value));
  });
}
