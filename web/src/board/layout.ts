// Where everything sits on the schematic map (SVG user units). Positions follow the real
// latitude/longitude of data/board.json (see `project`), then are nudged by hand so that town
// boxes do not overlap; merchants sit at the edges, Oxford and Gloucester pulled in close.
import { LINKS, LOCATION } from "../logic/names";

export const WIDTH = 1220;
export const HEIGHT = 1300;
export const SLOT = 54;
export const GAP = 4;
export const PAD = 5;

/** The raw projection: x grows east, y grows south. */
export function project(lat: number, lonW: number): [number, number] {
  return [(2.85 - lonW) * 700, (53.45 - lat) * 1000];
}

// Box centres, hand-tuned from `project` (kept in the same relative order).
const POS: Record<string, [number, number]> = {
  warrington: [250, 70],
  leek: [560, 120],
  belper: [930, 130],
  stoke_on_trent: [370, 230],
  derby: [930, 290],
  nottingham: [1130, 300],
  stone: [420, 380],
  uttoxeter: [700, 380],
  stafford: [440, 520],
  burton_on_trent: [870, 480],
  farm_brewery_north: [330, 640],
  cannock: [560, 640],
  tamworth: [880, 650],
  shrewsbury: [75, 760],
  coalbrookdale: [223, 790],
  wolverhampton: [420, 790],
  walsall: [650, 780],
  nuneaton: [1060, 790],
  dudley: [430, 930],
  birmingham: [760, 950],
  coventry: [1060, 970],
  kidderminster: [290, 1040],
  redditch: [680, 1110],
  farm_brewery_south: [170, 1140],
  worcester: [440, 1170],
  gloucester: [290, 1236],
  oxford: [900, 1240],
};

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Slot grid of a location: 4 slots as 2x2, otherwise one row. Merchants: their merchant slots. */
function grid(n: number): [number, number] {
  return n === 4 ? [2, 2] : [n, 1];
}

export function center(id: string): [number, number] {
  const p = POS[id];
  if (p) return p;
  const l = LOCATION[id];
  return project(l.lat, l.lon_w);
}

export function box(id: string): Box {
  const l = LOCATION[id];
  const n = l.kind === "merchant" ? l.merchantSlots : l.slots.length;
  const [cols, rows] = grid(n);
  const w = cols * SLOT + (cols - 1) * GAP + 2 * PAD;
  const h = rows * SLOT + (rows - 1) * GAP + 2 * PAD;
  const [cx, cy] = center(id);
  return { x: cx - w / 2, y: cy - h / 2, w, h };
}

export function slotBox(id: string, slot: number): Box {
  const l = LOCATION[id];
  const n = l.kind === "merchant" ? l.merchantSlots : l.slots.length;
  const [cols] = grid(n);
  const b = box(id);
  const c = slot % cols;
  const r = Math.floor(slot / cols);
  return { x: b.x + PAD + c * (SLOT + GAP), y: b.y + PAD + r * (SLOT + GAP), w: SLOT, h: SLOT };
}

export interface LinkGeom {
  id: string;
  a: [number, number];
  b: [number, number];
  mid: [number, number];
  spur?: [number, number]; // the farm brewery the link also connects
  /** the part of the link outside both end boxes (what is seen of it), and its middle */
  seen: [[number, number], [number, number]];
  seenMid: [number, number];
}

/** How far along a→b (0..1) the segment leaves the box around a (grown by `pad`). */
function exit(a: [number, number], b: [number, number], bx: Box, pad: number): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const tx = dx === 0 ? Infinity : ((dx > 0 ? bx.x + bx.w + pad : bx.x - pad) - a[0]) / dx;
  const ty = dy === 0 ? Infinity : ((dy > 0 ? bx.y + bx.h + pad : bx.y - pad) - a[1]) / dy;
  return Math.max(0, Math.min(1, tx, ty));
}

/** The visible part of a link between the boxes of its ends. */
export function seenPart(ends: string[]): [[number, number], [number, number]] {
  const a = center(ends[0]);
  const b = center(ends[1]);
  const ta = exit(a, b, box(ends[0]), 6);
  const tb = 1 - exit(b, a, box(ends[1]), 6);
  const at = (t: number): [number, number] => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
  return ta < tb ? [at(ta), at(tb)] : [at(0.5), at(0.5)];
}

export const LINK_GEOM: Record<string, LinkGeom> = Object.fromEntries(
  LINKS.map((l) => {
    const a = center(l.ends[0]);
    const b = center(l.ends[1]);
    const mid: [number, number] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    const seen = seenPart(l.ends);
    const seenMid: [number, number] = [(seen[0][0] + seen[1][0]) / 2, (seen[0][1] + seen[1][1]) / 2];
    const g: LinkGeom = { id: l.id, a, b, mid, seen, seenMid };
    if (l.also_connects?.length) g.spur = center(l.also_connects[0]);
    return [l.id, g];
  }),
);
