// The statement's details: folded on a narrow screen so the editor and Check are in the first screen,
// open on a wide one where the editor has its own column. The learner's own opening or closing stands.

// Open the details where the page has two columns. style.css holds the breakpoint and says how many
// columns it laid out in --columns, read once the stylesheet is there.
export async function unfoldOnWideScreens(details) {
  const sheet = document.querySelector('link[rel="stylesheet"]');
  if (sheet && !sheet.sheet) {
    await new Promise((resolve) => {
      sheet.addEventListener("load", resolve, { once: true });
      sheet.addEventListener("error", resolve, { once: true });
    });
  }
  details.open = getComputedStyle(document.documentElement).getPropertyValue("--columns").trim() === "2";
}
