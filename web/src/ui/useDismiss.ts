// A <details> used as a drop-down menu closes as a menu does: on Escape (focus goes back to its
// summary, and the table's own Escape, which steps a choice back, does not run as well) and on
// a press anywhere outside it. Open, it would otherwise stay over the action panel.
import type { RefObject } from "preact";
import { useEffect } from "preact/hooks";

export function useDismiss(ref: RefObject<HTMLDetailsElement>): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const menu = ref.current;
      if (e.key !== "Escape" || !menu?.open) return;
      menu.open = false;
      menu.querySelector("summary")?.focus();
      e.preventDefault();
      e.stopImmediatePropagation();
    };
    const onPress = (e: PointerEvent) => {
      const menu = ref.current;
      if (menu?.open && !menu.contains(e.target as Node)) menu.open = false;
    };
    addEventListener("keydown", onKey, true);
    addEventListener("pointerdown", onPress, true);
    return () => {
      removeEventListener("keydown", onKey, true);
      removeEventListener("pointerdown", onPress, true);
    };
  }, [ref]);
}
