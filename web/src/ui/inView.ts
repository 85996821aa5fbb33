// Keep what the player must read before confirming in view: the preview's money (its total and
// the money left after it) above the Confirm bar, which sticks to the bottom of the panel's scrolling box (the side column on a
// laptop, the bottom sheet on a phone) and would otherwise cover it.

/** The nearest ancestor of `el` that scrolls vertically, or null. */
export function scroller(el: Element): HTMLElement | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const y = getComputedStyle(p).overflowY;
    if ((y === "auto" || y === "scroll") && p.scrollHeight > p.clientHeight) return p;
  }
  return null;
}

/** Scroll `el`'s scrolling box (no other) so that `el` ends above `bar` and starts inside the
 * box; nothing happens if it already does. */
export function keepAbove(el: Element, bar: Element | null, margin = 6): void {
  const box = scroller(el);
  if (!box) return;
  const r = el.getBoundingClientRect();
  const limit = Math.min(box.getBoundingClientRect().bottom, bar ? bar.getBoundingClientRect().top : Infinity);
  const down = r.bottom + margin - limit;
  if (down > 0) box.scrollTop += Math.min(down, r.top - box.getBoundingClientRect().top);
}
