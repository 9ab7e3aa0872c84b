// The statement's details: folded on a narrow screen so the editor and Check are in the first screen,
// open on a wide one where the editor has its own column. The learner's own opening or closing stands.

const WIDE = "(min-width: 60.01rem)"; // the two-column layout of style.css

export function unfoldOnWideScreens(details) {
  details.open = matchMedia(WIDE).matches;
}
