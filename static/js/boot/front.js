// Not bundled: server/page/first_paint.py puts this script inline in the front page (templates/front.html),
// and the page's policy allows it by its hash. A share link made before there were several exercises
// (`#code/1/...` on the playground's own address) opens the seed's exercise with its code; and the theme
// the learner chose on an exercise's page (page/theme.js) is the front page's too.
(() => {
  const { seed, theme } = document.currentScript.dataset;
  if (seed && location.hash.startsWith("#code/")) location.replace(seed + location.hash);
  try {
    const chosen = localStorage.getItem(theme);
    if (chosen === "light" || chosen === "dark") document.documentElement.dataset.theme = chosen;
  } catch {}
})();
