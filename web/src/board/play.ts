// Plays a planned move animation (logic/animate.ts) on the board with the Web Animations API:
// the board is already drawn as after the move, so each piece is animated from how it was
// (a tile from above and transparent, a link from nothing, a flipped tile turning over) and
// carried cubes are drawn for the time of their trip on the board's animation layer.
import type { Timed, Where } from "../logic/animate";
import { LINK_GEOM, slotBox } from "./layout";
import { MARKET_MIDDLE } from "./Markets";
import { pieceElement } from "./pieces";

/** The board point of a cube's start or end; null for a seat's own supply (not on the board). */
function point(w: Where): [number, number] | null {
  switch (w.kind) {
    case "slot":
    case "merchant": {
      const [loc, slot] = w.key.split(":");
      const b = slotBox(loc, Number(slot));
      return [b.x + b.w / 2, b.y + b.h / 2];
    }
    case "link":
      return LINK_GEOM[w.id]?.seenMid ?? null;
    case "market":
      return MARKET_MIDDLE[w.resource];
    default:
      return null;
  }
}

/** A counter's flash: a gold ring and a see-through gold tint inside it (inset shadows paint
 * over the background and under the text); its end, the same shadows gone. */
const FLASH = "inset 0 0 0 2px #f3c77a, inset 0 0 0 999px rgba(243, 199, 122, 0.3)";
const FLASH_END = "inset 0 0 0 2px rgba(243, 199, 122, 0), inset 0 0 0 999px rgba(243, 199, 122, 0)";

export interface Playing {
  /** end every animation now: the board as after the move */
  skip: () => void;
  finished: Promise<void>;
}

/** Play `timed` on `svg` (and the page's score strip for the counters). */
export function play(svg: SVGSVGElement, timed: Timed[]): Playing {
  const layer = svg.querySelector(".anim-layer");
  const anims: Animation[] = [];
  const made: Element[] = [];
  const run = (el: Element | null, frames: Keyframe[], at: number, ms: number, turn = false) => {
    if (!el) return;
    if (turn) Object.assign((el as SVGElement).style, { transformBox: "fill-box", transformOrigin: "center" });
    anims.push(el.animate(frames, { delay: at, duration: ms, easing: "ease-out", fill: "backwards" }));
  };
  for (const { step, at, ms } of timed) {
    switch (step.kind) {
      case "remove":
        run(svg.querySelector(`[data-slot="${step.slot}"]`), [{ opacity: 0.15 }, { opacity: 1 }], at, ms);
        break;
      case "place":
        run(svg.querySelector(`[data-tile="${step.slot}"]`), [{ transform: "translateY(-40px) scale(1.4)", opacity: 0 }, { transform: "none", opacity: 1 }], at, ms, true);
        break;
      case "link":
        run(svg.querySelector(`.links [data-link="${step.id}"]`), [{ opacity: 0 }, { opacity: 1 }], at, ms);
        break;
      case "sell":
        run(svg.querySelector(`[data-tile="${step.slot}"]`), [{ transform: "scale(1.25)" }, { transform: "none" }], at, ms, true);
        break;
      case "flip":
        run(svg.querySelector(`[data-tile="${step.slot}"]`), [{ transform: "scaleX(1)" }, { transform: "scaleX(0)" }, { transform: "scaleX(1)" }], at, ms, true);
        break;
      case "carry": {
        const from = point(step.from);
        const to = point(step.to) ?? from;
        if (!from || !to || !layer) break;
        for (let i = 0; i < Math.min(step.count, 3); i++) {
          const [w, h] = step.resource === "beer" ? [13, 15] : [12, 12];
          const cube = pieceElement(step.resource, -w / 2 + i * 5, -h / 2 - i * 5, w, h);
          layer.appendChild(cube);
          made.push(cube);
          anims.push(cube.animate([
            { transform: `translate(${from[0]}px, ${from[1]}px)`, opacity: 1 },
            { transform: `translate(${to[0]}px, ${to[1]}px)`, opacity: step.to.kind === "seat" ? 0 : 1 },
          ], { delay: at, duration: ms, easing: "ease-in-out", fill: "both" }));
        }
        break;
      }
      case "counter":
        for (const el of document.querySelectorAll(`[data-testid=score-${step.seat}], [data-testid=player-${step.seat}]`)) {
          // a gold ring and tint over the row, under its text: the text keeps its own colour on
          // every background (the header's dark brown, a light or a dark panel), where fading a
          // dark text on gold into the header's cream went through grey on brown
          run(el, [{ boxShadow: FLASH }, { boxShadow: FLASH_END }], at, ms);
        }
        break;
    }
  }
  const cleanup = () => made.forEach((el) => el.remove());
  const finished = Promise.all(anims.map((a) => a.finished.catch(() => undefined))).then(cleanup);
  return { skip: () => anims.forEach((a) => a.finish()), finished };
}
