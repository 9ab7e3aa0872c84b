// Light or dark: the system's choice (prefers-color-scheme) until the learner presses the theme
// button, whose choice this browser remembers. The colours themselves are in the CSS (light-dark()).

import NAMES from "../shared/names.json" with { type: "json" };
import { read, write } from "../shared/storage.js";

const THEME_KEY = NAMES.storage.theme; // "light" or "dark"; absent: follow the system

// signal: the page's life (page/course-nav.js ends it when it moves to another exercise).
export function setupTheme(button, signal) {
  const system = matchMedia("(prefers-color-scheme: dark)");
  const stored = read(THEME_KEY);
  let chosen = stored === "light" || stored === "dark" ? stored : null;
  const dark = () => (chosen ? chosen === "dark" : system.matches);
  const apply = () => {
    if (chosen) document.documentElement.dataset.theme = chosen;
    else delete document.documentElement.dataset.theme;
    button.setAttribute("aria-pressed", String(dark()));
  };
  system.addEventListener("change", apply, { signal });
  button.addEventListener("click", () => {
    chosen = dark() ? "light" : "dark";
    write(THEME_KEY, chosen); // not remembered where storage is blocked
    apply();
  });
  apply();
}
