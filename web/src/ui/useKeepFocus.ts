// The control a player is on can vanish as the choice moves on: a card's button becomes the
// chosen card, the targets of a step give way to the next step's. The focus would then fall to
// the page itself, and a keyboard player would Tab through the header again to come back. While
// the focus was last in the panel, it goes to the panel's next step instead: Confirm once the
// move is whole, else the first control offered.
import type { RefObject } from "preact";
import { useEffect, useRef } from "preact/hooks";

export function useKeepFocus(panel: RefObject<HTMLElement>): void {
  const inside = useRef(false);
  useEffect(() => {
    const on = (e: FocusEvent) => {
      inside.current = !!panel.current?.contains(e.target as Node);
    };
    addEventListener("focusin", on);
    return () => removeEventListener("focusin", on);
  }, [panel]);
  useEffect(() => {
    const box = panel.current;
    const at = document.activeElement;
    if (!inside.current || !box || (at !== null && at !== document.body)) return;
    const next = box.querySelector<HTMLElement>("[data-testid=confirm]:not(:disabled)")
      ?? box.querySelector<HTMLElement>("[data-offer]:not(:disabled)");
    next?.focus({ preventScroll: true });
  });
}
