// How the page writes numbers, every format in one place.

import { number } from "./i18n.js";

// A count or a size in characters, as the learner's language writes it: 12,345 (English), 12.345 (German).
export const count = (n) => number(n);

// Bytes as megabytes with one decimal: 4.1 (English), 4,1 (German).
export const megabytes = (bytes) => number(bytes / 1e6, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

// A gradient or value in a table: exactly as the report gives it (the grader rounds to 9 digits), "—"
// when there is none.
export const exact = (x) => (x === null || x === undefined ? "—" : String(x));

// A value in a picture's box: 4 significant digits and a true minus sign; text (nan, a learner's
// string) as it is, cut to 12 characters.
export function short(x) {
  if (x === null || x === undefined) return "—";
  if (typeof x !== "number") return String(x).length > 12 ? `${String(x).slice(0, 11)}…` : String(x);
  if (!Number.isFinite(x)) return String(x);
  return String(Number(x.toPrecision(4))).replace("-", "−");
}
