// When a move arrives (a new log entry while the page is open, or a replay's step forward), its
// animation plays on the board: planned from the move's effects (logic/animate.ts), played by
// board/play.ts, skipped by any key or tap, never under prefers-reduced-motion. The page marks
// `data-animating` on the board while one plays.
import { useEffect, useRef } from "preact/hooks";
import type { LogEntry, MoveEvent } from "../api/types";
import { type Playing, play } from "../board/play";
import { moveSteps, schedule } from "../logic/animate";

export function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Play `entry`'s move on the page's board now; returns how to skip it (null if nothing plays). */
export function animateEntry(entry: LogEntry | undefined): Playing | null {
  const move = entry?.effects?.find((e) => e.type === "move") as MoveEvent | undefined;
  const svg = document.querySelector<SVGSVGElement>("svg.board");
  if (!move || !svg) return null;
  const timed = schedule(moveSteps(move), reducedMotion());
  if (!timed.length) return null;
  const playing = play(svg, timed);
  svg.dataset.animating = String(timed.length);
  const skip = () => playing.skip();
  addEventListener("keydown", skip);
  addEventListener("pointerdown", skip);
  void playing.finished.then(() => {
    delete svg.dataset.animating;
    removeEventListener("keydown", skip);
    removeEventListener("pointerdown", skip);
  });
  return playing;
}

/** Animate the newest entry of a game's log each time one arrives after the log was first
 * fetched (`ready`): the log the page opens with, and an undo's shorter log, play nothing. */
export function useMoveAnimation(log: LogEntry[], ready: boolean): void {
  const seen = useRef<number | null>(null);
  const last = log[log.length - 1]?.seq ?? 0;
  useEffect(() => {
    const before = seen.current;
    if (!ready) {
      seen.current = null;
      return;
    }
    seen.current = last;
    if (before === null || last <= before) return;
    const playing = animateEntry(log[log.length - 1]);
    return () => playing?.skip();
  }, [last, ready]);
}
