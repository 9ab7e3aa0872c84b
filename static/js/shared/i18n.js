// The learner's words in their language: the page's side of the message catalogue (server/page/i18n.py).
//
// The page's config carries the messages of its language (config.catalogue: msgid -> msgstr, or a list
// of plural forms, the Plural-Forms rule, the number symbols); `pybabel extract` finds the calls below
// in this code (babel.cfg), so adding a message is writing `t("...")` and translating it in the .po.
// A message the catalogue lacks is said in English, as written. `{name}` placeholders are filled from
// params, the same as in the engine (engine/words.py).

const catalogue = readCatalogue();
const messages = catalogue.messages ?? {};
const rule = catalogue.plural; // which of a message's plural forms fits a count (pluralIndex)

function readCatalogue() {
  try {
    const config = JSON.parse(document.getElementById("config")?.textContent ?? "{}");
    return config.catalogue ?? {};
  } catch {
    return {};
  }
}

// The page's language ("en", "de").
export const language = catalogue.language ?? "en";

const fill = (text, params = {}) =>
  text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));

// A message in the learner's language, its {placeholders} filled from params.
export function t(message, params) {
  const said = messages[message];
  return fill(typeof said === "string" && said ? said : message, params);
}

// The form of a message that fits the count n; {n} is n as the locale writes it.
export function tn(singular, plural, n, params = {}) {
  const forms = messages[singular];
  let said = n === 1 ? singular : plural;
  if (Array.isArray(forms) && forms.length && rule) said = forms[pluralIndex(rule, n)] || forms[0];
  return fill(said, { n: number(n), ...params });
}

// A message marked for the catalogue, translated where it is shown (with t()).
export const N_ = (message) => message;

// A number as the learner's locale writes it: 1,234.5 in English, 1.234,5 in German. One formatter for
// each set of options, made once: toLocaleString with a locale makes a new one at every call, and a
// report's numbers made that a millisecond or two of every Check (docs/speed.md).
const formats = new Map();
export function number(n, options) {
  const key = options ? JSON.stringify(options) : "";
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(language, options)));
  return format.format(Number(n));
}

// A URL of the server's with a language in its ?lang= (the page's, unless another is given): what the
// server answers (a refusal, the grade's way to the course, /verify's report) is in the language the
// page speaks, whatever chose it; the page itself in another language keeps its fragment (a share link).
export function inLanguage(url, code = language) {
  const withLanguage = new URL(url, location.href);
  withLanguage.searchParams.set("lang", code);
  return withLanguage.href;
}

// C's binary operators on integers (division and modulo by zero give 0), as engine/words.py's OPERATORS.
const OPERATORS = {
  "||": (a, b) => +(!!a || !!b),
  "&&": (a, b) => +(!!a && !!b),
  "==": (a, b) => +(a === b),
  "!=": (a, b) => +(a !== b),
  "<": (a, b) => +(a < b),
  ">": (a, b) => +(a > b),
  "<=": (a, b) => +(a <= b),
  ">=": (a, b) => +(a >= b),
  "+": (a, b) => a + b,
  "-": (a, b) => a - b,
  "*": (a, b) => a * b,
  "/": (a, b) => (b ? Math.trunc(a / b) : 0),
  "%": (a, b) => (b ? a % b : 0),
};

// The index of the plural form that fits the count n, by the catalogue's rule: a tree the server parsed
// from the Plural-Forms line with server/page/plural.py's plural_tree (["n"], [number], ["!", x],
// [operator, left, right], ["?", condition, then, otherwise]), never evaluated as code.
export function pluralIndex(tree, n) {
  const count = Math.abs(Math.trunc(n));
  const value = ([head, a, b, c]) => {
    if (head === "n") return count;
    if (head === "!") return +!value(a);
    if (head === "?") return value(value(a) ? b : c);
    if (head in OPERATORS) return OPERATORS[head](value(a), value(b));
    return Number(head);
  };
  return value(tree);
}
