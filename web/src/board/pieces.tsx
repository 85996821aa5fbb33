// The wooden pieces of the board, one drawing each wherever they lie: a cube of coal or iron (a
// square with a light bevel above and a shadow below, as a cube seen from above) and a barrel of
// beer (the brewery picture's bulging outline, with two dark hoops). The tiles' resources, the
// markets' cubes, the merchants' beer and the cubes a move's animation carries are all these,
// so a barrel on a merchant looks like the barrel it becomes on a tile. The shapes are described
// once, as parts (an element name and its attributes): `Piece` draws them in the board's JSX,
// `pieceElement` builds them in the DOM for the animation layer (board/play.ts).
import type { JSX } from "preact";

type PieceKind = "coal" | "iron" | "beer";

type Part = ["rect" | "path", Record<string, string | number>];

const f = (n: number) => Number(n.toFixed(2));

/** A cube seen from above in the square (x, y, s): the body takes its colour from its class
 * (`.cube.coal`, `.cube.iron`), the bevels are white and black over it. */
function cubeParts(x: number, y: number, s: number): Part[] {
  const a = s * 0.1; // inside the body's outline
  const b = s * 0.2; // the bevel's width
  const [l, t, r, btm] = [x + a, y + a, x + s - a, y + s - a];
  return [
    ["rect", { x: f(x), y: f(y), width: f(s), height: f(s), rx: f(s * 0.12), class: "piece-body" }],
    ["path", { d: `M${f(l)},${f(t)} H${f(r)} L${f(r - b)},${f(t + b)} H${f(l + b)} V${f(btm - b)} L${f(l)},${f(btm)} Z`, class: "piece-light" }],
    ["path", { d: `M${f(r)},${f(t)} V${f(btm)} H${f(l)} L${f(l + b)},${f(btm - b)} H${f(r - b)} V${f(t + b)} Z`, class: "piece-shade" }],
  ];
}

/** A barrel standing in the box (x, y, w, h): the sides bulge (the brewery picture's outline),
 * two hoops a quarter in from each end. */
function barrelParts(x: number, y: number, w: number, h: number): Part[] {
  const i = w * 0.12;
  const body = `M${f(x + i)},${f(y)} H${f(x + w - i)} Q${f(x + w + i / 2)},${f(y + h / 2)} ${f(x + w - i)},${f(y + h)} `
    + `H${f(x + i)} Q${f(x - i / 2)},${f(y + h / 2)} ${f(x + i)},${f(y)} Z`;
  const hoop = (at: number): Part => ["rect", { x: f(x + w * 0.04), y: f(y + h * at), width: f(w * 0.92), height: f(Math.max(h * 0.1, 0.8)), class: "piece-hoop" }];
  return [["path", { d: body, class: "piece-body" }], hoop(0.22), hoop(0.68)];
}

function parts(kind: PieceKind, x: number, y: number, w: number, h: number): Part[] {
  return kind === "beer" ? barrelParts(x, y, w, h) : cubeParts(x, y, Math.min(w, h));
}

/** The class a piece is known by (the styles colour it, the tests count it). */
function pieceClass(kind: PieceKind): string {
  return kind === "beer" ? "barrel" : `cube ${kind}`;
}

/** A piece in the board's SVG, in the box (x, y, w, h) (a cube takes the box's smaller side). */
export function Piece({ resource, x, y, w, h, class: more }: {
  resource: PieceKind; x: number; y: number; w: number; h: number; class?: string;
}): JSX.Element {
  return (
    <g class={`piece ${pieceClass(resource)}${more ? ` ${more}` : ""}`} data-piece={resource}>
      {parts(resource, x, y, w, h).map(([tag, attrs], i) => (tag === "rect" ? <rect key={i} {...attrs} /> : <path key={i} {...attrs} />))}
    </g>
  );
}

/** The same piece built in the DOM (the animation layer draws carried pieces for their trip). */
export function pieceElement(kind: PieceKind, x: number, y: number, w: number, h: number): SVGGElement {
  const ns = "http://www.w3.org/2000/svg";
  const g = document.createElementNS(ns, "g");
  g.setAttribute("class", `piece ${pieceClass(kind)}`);
  g.setAttribute("data-piece", kind);
  for (const [tag, attrs] of parts(kind, x, y, w, h)) {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    g.appendChild(el);
  }
  return g;
}
