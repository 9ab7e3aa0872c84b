// Zoom and pan for a picture. It opens at the readable size, where its text is as big as the page's
// body text (FONT in the drawing's units times readableScale), and zooms in steps up to twice that; it
// never shows smaller, so on a narrow screen a big graph is panned, never shrunk to unreadable: by
// dragging, by the scroll bars, by the arrow keys on the focused picture (+, - and 0 zoom there too) or
// by moving the focus from value to value (graph.js).

import { el } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { FONT } from "./graph-layout.js";
import { ZOOMS, readableScale } from "./graph-view.js";

const TEXT = {
  zoomIn: t("Zoom in"),
  zoomOut: t("Zoom out"),
  reset: t("Reset zoom"),
  whole: t("Text at page size (100 %); the whole picture is in view"),
  part: t("Text at page size (100 %); drag, or use the arrow keys, to see the rest"),
  zoomed: (percent) => t("Shown at {percent} %", { percent }),
  group: (name) => t("Zoom the picture of {name}", { name }),
};

// The scale at which the drawing's text is as big as the page's body text, on this page now.
export function readable() {
  return readableScale(parseFloat(getComputedStyle(document.body).fontSize), FONT);
}

// scroller holds svg, whose natural size is width × height; returns the controls to show above it and
// scale(), the drawing's scale now.
export function zoomable(scroller, svg, { width, height }, name) {
  let level = 0; // an index into ZOOMS
  const scale = () => readable() * ZOOMS[level];
  const readout = el("span", { class: "graph-zoom-level" }); // a live region from the first zoom on: see zoomTo
  const button = (text, action) => {
    const b = el("button", { type: "button", text });
    b.addEventListener("click", () => b.getAttribute("aria-disabled") !== "true" && action());
    return b;
  };
  const zoomIn = button(TEXT.zoomIn, () => zoomTo(Math.min(level + 1, ZOOMS.length - 1)));
  const zoomOut = button(TEXT.zoomOut, () => zoomTo(Math.max(level - 1, 0)));
  const reset = button(TEXT.reset, () => zoomTo(0));

  function zoomTo(next) {
    // Keep the middle of what is in view in the middle.
    readout.setAttribute("aria-live", "polite"); // say the new size; not before, when opening it is no news
    const before = scale();
    const middleX = (scroller.scrollLeft + scroller.clientWidth / 2) / before;
    const middleY = (scroller.scrollTop + scroller.clientHeight / 2) / before;
    level = next;
    show();
    scroller.scrollLeft = middleX * scale() - scroller.clientWidth / 2;
    scroller.scrollTop = middleY * scale() - scroller.clientHeight / 2;
  }

  function show() {
    svg.style.width = `${Math.round(width * scale())}px`;
    const whole = width * scale() <= scroller.clientWidth + 1 && height * scale() <= scroller.clientHeight + 1;
    scroller.dataset.zoomed = String(level > 0);
    scroller.dataset.whole = String(whole);
    const text = level ? TEXT.zoomed(Math.round(ZOOMS[level] * 100)) : whole ? TEXT.whole : TEXT.part;
    if (readout.textContent !== text) readout.textContent = text;
    zoomIn.setAttribute("aria-disabled", String(level === ZOOMS.length - 1));
    for (const b of [zoomOut, reset]) b.setAttribute("aria-disabled", String(level === 0));
  }

  // Drag to pan, when there is anywhere to go.
  let drag = null;
  scroller.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || event.pointerType === "touch") return; // a finger scrolls the box natively
    if (scroller.scrollWidth <= scroller.clientWidth && scroller.scrollHeight <= scroller.clientHeight) return;
    drag = { x: event.clientX, y: event.clientY, left: scroller.scrollLeft, top: scroller.scrollTop, id: event.pointerId };
  });
  scroller.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (!scroller.hasPointerCapture(drag.id)) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 4) return; // a click, so far
      scroller.setPointerCapture(drag.id);
      scroller.classList.add("dragging");
    }
    scroller.scrollLeft = drag.left - (event.clientX - drag.x);
    scroller.scrollTop = drag.top - (event.clientY - drag.y);
  });
  const stop = () => {
    drag = null;
    scroller.classList.remove("dragging");
  };
  scroller.addEventListener("pointerup", stop);
  scroller.addEventListener("pointercancel", stop);
  scroller.addEventListener("keydown", (event) => {
    const action = { "+": zoomIn, "=": zoomIn, "-": zoomOut, 0: reset }[event.key];
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    action.click();
  });
  new ResizeObserver(() => show()).observe(scroller); // whether it is all in view follows the box
  show();
  const controls = el("div", { class: "graph-controls", role: "group", "aria-label": TEXT.group(name) }, zoomIn, zoomOut, reset, readout);
  return { controls, scale };
}
