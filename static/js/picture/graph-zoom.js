// Zoom and pan for a picture: fitted to its box at first (never enlarged), then zoomed in steps up to
// twice its size, where its text is 24 px; panned by dragging, by the scroll bars or with the arrow
// keys once the picture has the focus (+, - and 0 zoom there too).

import { el } from "../shared/dom.js";

const STEPS = [0.5, 0.75, 1, 1.5, 2]; // zoom levels above the fitted size; at 1 the labels are 12 px

// scroller holds svg, whose natural size is width × height; returns the controls to show above it.
export function zoomable(scroller, svg, { width, height }, name) {
  let scale = null; // null: fitted to the box
  const fitted = () => Math.min(1, scroller.clientWidth / width);
  const current = () => scale ?? fitted();
  const readout = el("span", { class: "graph-zoom-level" }); // a live region from the first zoom on: see zoomTo
  const button = (text, action) => {
    const b = el("button", { type: "button", text });
    b.addEventListener("click", () => b.getAttribute("aria-disabled") !== "true" && action());
    return b;
  };
  const zoomIn = button("Zoom in", () => zoomTo(STEPS.find((s) => s > current() + 1e-3) ?? current()));
  const zoomOut = button("Zoom out", () => {
    const smaller = STEPS.findLast((s) => s < current() - 1e-3);
    zoomTo(smaller === undefined || smaller <= fitted() ? null : smaller);
  });
  const fit = button("Fit to the box", () => zoomTo(null));

  function zoomTo(next) {
    // Keep the middle of what is in view in the middle.
    readout.setAttribute("aria-live", "polite"); // say the new size; not before, when fitting it is no news
    const before = current();
    const middleX = (scroller.scrollLeft + scroller.clientWidth / 2) / before;
    const middleY = (scroller.scrollTop + scroller.clientHeight / 2) / before;
    scale = next;
    show();
    scroller.scrollLeft = middleX * current() - scroller.clientWidth / 2;
    scroller.scrollTop = middleY * current() - scroller.clientHeight / 2;
  }

  function show() {
    svg.style.width = scale === null ? "100%" : `${Math.round(width * scale)}px`;
    svg.style.maxWidth = scale === null ? `${width}px` : "none";
    scroller.dataset.zoomed = String(scale !== null);
    const percent = Math.round(current() * 100);
    const text = scale === null ? `Fitted to the box (${percent} %)` : `Shown at ${percent} %`;
    if (readout.textContent !== text) readout.textContent = text;
    zoomIn.setAttribute("aria-disabled", String(current() >= STEPS.at(-1) - 1e-3));
    zoomOut.setAttribute("aria-disabled", String(scale === null));
    fit.setAttribute("aria-disabled", String(scale === null));
  }

  // Drag to pan, when there is anywhere to go.
  let drag = null;
  scroller.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || (scroller.scrollWidth <= scroller.clientWidth && scroller.scrollHeight <= scroller.clientHeight)) return;
    drag = { x: event.clientX, y: event.clientY, left: scroller.scrollLeft, top: scroller.scrollTop };
    scroller.setPointerCapture(event.pointerId);
    scroller.classList.add("dragging");
  });
  scroller.addEventListener("pointermove", (event) => {
    if (!drag) return;
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
    const action = { "+": zoomIn, "=": zoomIn, "-": zoomOut, 0: fit }[event.key];
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    action.click();
  });
  new ResizeObserver(() => show()).observe(scroller); // the fitted percentage follows the box
  show();
  return el(
    "div",
    { class: "graph-controls", role: "group", "aria-label": `Zoom the picture of ${name}` },
    zoomIn,
    zoomOut,
    fit,
    readout,
  );
}
