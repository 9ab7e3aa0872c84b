// The learner's words in their language: the page's side of the message catalogue (server/i18n.py).
//
// The page's config carries the messages of its language (config.catalogue: msgid -> msgstr, or a list
// of plural forms, the Plural-Forms rule, the number symbols); `pybabel extract` finds the calls below
// in this code (babel.cfg), so adding a message is writing `t("...")` and translating it in the .po.
// A message the catalogue lacks is said in English, as written. `{name}` placeholders are filled from
// params, the same as in the engine (engine/words.py).

const catalogue = readCatalogue();
const messages = catalogue.messages ?? {};
const pluralIndex = pluralRule(catalogue.plural ?? "plural=(n != 1);");

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
  if (Array.isArray(forms) && forms.length) said = forms[pluralIndex(n)] || forms[0];
  return fill(said, { n: number(n), ...params });
}

// A message marked for the catalogue, translated where it is shown (with t()).
export const N_ = (message) => message;

// A number as the learner's locale writes it: 1,234.5 in English, 1.234,5 in German.
export const number = (n, options) => Number(n).toLocaleString(language, options);

// A URL of the server's with a language in its ?lang= (the page's, unless another is given): what the
// server answers (a refusal, the grade's way to the course, /verify's report) is in the language the
// page speaks, whatever chose it; the page itself in another language keeps its fragment (a share link).
export function inLanguage(url, code = language) {
  const withLanguage = new URL(url, location.href);
  withLanguage.searchParams.set("lang", code);
  return withLanguage.href;
}

// A C plural expression (the catalogue's Plural-Forms) parsed into n -> index: never evaluated as code
// (the page's CSP forbids eval), the same grammar as engine/words.py's.
export function pluralRule(header) {
  const expression = header.includes("plural=") ? header.split("plural=")[1].split(";")[0] : header;
  const tokens = expression.match(/\d+|n|\|\||&&|==|!=|<=|>=|[<>%?:()!+\-*/]/g) ?? [];
  if (tokens.join("") !== expression.replace(/\s+/g, "")) throw new Error(`not a plural rule: ${header}`);
  let pos = 0;
  const peek = () => tokens[pos];
  const take = (want) => {
    const tok = tokens[pos++];
    if (tok === undefined || (want !== undefined && tok !== want)) throw new Error(`not a plural rule: ${header}`);
    return tok;
  };
  const LEVELS = [["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"]];
  const OPS = {
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
  const ternary = () => {
    const cond = binary(0);
    if (peek() !== "?") return cond;
    take("?");
    const yes = ternary();
    take(":");
    const no = ternary();
    return (n) => (cond(n) ? yes(n) : no(n));
  };
  const binary = (level) => {
    if (level === LEVELS.length) return unary();
    let left = binary(level + 1);
    while (LEVELS[level].includes(peek())) {
      const op = OPS[take()];
      const [l, right] = [left, binary(level + 1)];
      left = (n) => op(l(n), right(n));
    }
    return left;
  };
  const unary = () => {
    const tok = take();
    if (tok === "!") {
      const inner = unary();
      return (n) => +!inner(n);
    }
    if (tok === "(") {
      const inner = ternary();
      take(")");
      return inner;
    }
    if (tok === "n") return (n) => n;
    if (/^\d+$/.test(tok)) return () => Number(tok);
    throw new Error(`not a plural rule: ${header}`);
  };
  const rule = ternary();
  if (pos !== tokens.length) throw new Error(`not a plural rule: ${header}`);
  return (n) => Number(rule(Math.abs(Math.trunc(n))));
}
