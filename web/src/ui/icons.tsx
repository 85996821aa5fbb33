// Small pictures drawn in SVG, never emoji or rare symbols (a browser without an emoji font
// draws those as empty boxes): each is decorative (aria-hidden) beside words that name it, or
// the whole content of a button whose aria-label names it.
import type { JSX } from "preact";

const PATHS = {
  bell: "M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6Zm-2.5 15a2.5 2.5 0 0 0 5 0Z",
  bellOff: "M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6Zm-2.5 15a2.5 2.5 0 0 0 5 0ZM3.5 3.5l17 17-1.4 1.4-17-17Z",
  trophy: "M7 3h10v2h4v3a5 5 0 0 1-4.6 5A5 5 0 0 1 13 16v2h3v3H8v-3h3v-2a5 5 0 0 1-3.4-3A5 5 0 0 1 3 8V5h4Zm-2 4v1a3 3 0 0 0 2 2.8V7Zm12 0v3.8A3 3 0 0 0 19 8V7Z",
  close: "M5.6 4.2 12 10.6l6.4-6.4 1.4 1.4-6.4 6.4 6.4 6.4-1.4 1.4-6.4-6.4-6.4 6.4-1.4-1.4 6.4-6.4-6.4-6.4Z",
  fit: "M3 3h7v2H6.4l4.3 4.3-1.4 1.4L5 6.4V10H3Zm11 0h7v7h-2V6.4l-4.3 4.3-1.4-1.4L17.6 5H14ZM3 14h2v3.6l4.3-4.3 1.4 1.4L6.4 19H10v2H3Zm16 0h2v7h-7v-2h3.6l-4.3-4.3 1.4-1.4 4.3 4.3Z",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 16 }: { name: IconName; size?: number }): JSX.Element {
  return (
    <svg class={`icon icon-${name}`} width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="currentColor" fill-rule="evenodd" />
    </svg>
  );
}
