// One picture per industry, drawn in SVG (no font, no emoji): a spool of cotton, a lump of coal,
// an anvil, a gear, a vase, a barrel. The same drawing on the board, the mats, the hand, the
// picker and the log: `IndustryGlyph` inside the board's SVG, `IndustryIcon` in HTML.
import type { JSX } from "preact";
import { INDUSTRY_COLOUR, INDUSTRY_NAME } from "../logic/names";

/** A gear's outline (centre 12,12): eight teeth. */
function gear(): string {
  const pts: string[] = [];
  for (let i = 0; i < 16; i++) {
    const a0 = (i * Math.PI) / 8 - Math.PI / 16;
    const a1 = a0 + Math.PI / 8;
    const r = i % 2 === 0 ? 10.5 : 7.5;
    pts.push(`${(12 + r * Math.cos(a0)).toFixed(2)},${(12 + r * Math.sin(a0)).toFixed(2)}`);
    pts.push(`${(12 + r * Math.cos(a1)).toFixed(2)},${(12 + r * Math.sin(a1)).toFixed(2)}`);
  }
  return `M${pts.join(" L")} Z M12,8.6 a3.4,3.4 0 1,0 0.01,0 Z`;
}

/** Each industry's drawing in a 24×24 box, as paths filled with the ink colour (evenodd). */
export const INDUSTRY_PATH: Record<string, string> = {
  cotton: "M5,3 h14 v3 h-2 v12 h2 v3 h-14 v-3 h2 v-12 h-2 Z M9,8 h6 v1.6 h-6 Z M9,11.2 h6 v1.6 h-6 Z M9,14.4 h6 v1.6 h-6 Z",
  coal: "M3,19 L6,11 L11,8 L15,11 L18,8 L22,13 L21,20 Z M8,15 l3,-2 l2,2 Z",
  iron: "M3,7 h14 c2,0 4,1 5,3 h-6 v3 c0,1.5 -1.5,2.5 -3,2.5 v2.5 h3 v3 h-12 v-3 h3 v-2.5 c-2,0 -4,-2 -4,-5 Z",
  manufacturer: gear(),
  pottery: "M9,2 h6 v2 c0,1.5 -1.5,2 -1.5,3 c3,1.5 5.5,4 5.5,8 c0,4 -3,7 -7,7 c-4,0 -7,-3 -7,-7 c0,-4 2.5,-6.5 5.5,-8 c0,-1 -1.5,-1.5 -1.5,-3 Z",
  brewery: "M6,3 h12 c1.8,3 2.5,6 2.5,9 c0,3 -0.7,6 -2.5,9 h-12 c-1.8,-3 -2.5,-6 -2.5,-9 c0,-3 0.7,-6 2.5,-9 Z M4.3,7.5 h15.4 v1.6 h-15.4 Z M4.3,14.9 h15.4 v1.6 h-15.4 Z",
};

/** The ink that reads on an industry's colour. */
export function industryInk(industry: string): string {
  return industry === "coal" ? "#fff" : "#1a140c";
}

/** The drawing inside an SVG, its 24-unit box scaled to `size` at (x, y). */
export function IndustryGlyph({ industry, x, y, size, ink }: {
  industry: string; x: number; y: number; size: number; ink?: string;
}): JSX.Element {
  return (
    <path d={INDUSTRY_PATH[industry] ?? ""} transform={`translate(${x} ${y}) scale(${size / 24})`}
      fill={ink ?? industryInk(industry)} fill-rule="evenodd" class="industry-glyph" data-glyph={industry} />
  );
}

/** The drawing as an inline picture in HTML (a chip in the industry's colour), named for
 * screen readers unless `hidden` (when the words beside it already name it). */
export function IndustryIcon({ industry, size = 18, hidden }: { industry: string; size?: number; hidden?: boolean }): JSX.Element {
  const label = hidden ? {} : { role: "img" as const, "aria-label": INDUSTRY_NAME[industry] };
  return (
    <svg class="industry-icon" width={size} height={size} viewBox="0 0 24 24" aria-hidden={hidden ? "true" : undefined} {...label}>
      <rect x={0} y={0} width={24} height={24} rx={4} fill={INDUSTRY_COLOUR[industry]} />
      <g transform="translate(2.4 2.4) scale(0.8)">
        <path d={INDUSTRY_PATH[industry] ?? ""} fill={industryInk(industry)} fill-rule="evenodd" />
      </g>
    </svg>
  );
}
