// How the game went: each seat's VP and money after every move (from the log's effects: the
// move's deltas, income paid at the end of a round, era scoring), drawn as an SVG graph; the
// winner line; a move list with era and round marks to jump to any move.
import { Icon } from "./icons";
import type { JSX } from "preact";
import type { LogEntry, View } from "../api/types";
import { PLAYER_SYMBOL } from "../board/symbols";
import { entryLine, type Names } from "../logic/events";
import { list, money, num, t } from "../i18n";
import { PLAYER_COLOURS, PLAYER_NAMES, seatWithSymbol } from "../logic/names";

export interface Point {
  vp: number[];
  money: number[];
}

/** Each seat's VP and money after 0, 1, … n moves, from the start (frame 0's players) and the
 * engine's recorded effects. Null if an entry has no effects (a game stored before them). */
export function series(start: { vp: number; money: number }[], log: LogEntry[]): Point[] | null {
  let vp = start.map((p) => p.vp);
  let money = start.map((p) => p.money);
  const out: Point[] = [{ vp, money }];
  for (const entry of log) {
    if (!entry.effects) return null;
    vp = [...vp];
    money = [...money];
    for (const e of entry.effects) {
      if (e.type === "move")
        for (const d of e.players) {
          vp[d.seat] += d.vp;
          money[d.seat] += d.money;
        }
      else if (e.type === "round_end")
        for (const i of e.income) {
          money[i.seat] = i.money_after;
          vp[i.seat] -= i.vp_lost;
        }
      else if (e.type === "era_end") for (const s of e.scores) vp[s.seat] = s.vp;
    }
    out.push({ vp, money });
  }
  return out;
}

/** Where each round starts in the log: [move index, era, round]. */
export function roundMarks(log: LogEntry[]): { at: number; era: string; round: number }[] {
  const out = [{ at: 0, era: "canal", round: 1 }];
  log.forEach((entry, i) => {
    const effects = entry.effects ?? [];
    const ended = effects.find((e) => e.type === "round_end");
    if (ended && ended.type === "round_end") {
      const eraOver = effects.some((e) => e.type === "era_end");
      out.push({ at: i + 1, era: eraOver ? "rail" : ended.era, round: eraOver ? 1 : ended.round + 1 });
    }
  });
  return out.filter((m) => m.at < log.length);
}

/** The end labels' heights: each at its line's end, moved apart (at least `gap`) where lines end
 * close together, kept between `top` and `bottom`. */
export function spread(ys: number[], gap: number, top: number, bottom: number): number[] {
  const order = ys.map((y, i) => [y, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(ys.length);
  let prev = -Infinity;
  for (const [y, i] of order) prev = out[i] = Math.max(y, prev + gap, top);
  let next = Infinity; // pushed past the bottom: move back up, in order
  for (const [, i] of [...order].reverse()) next = out[i] = Math.min(out[i], next - gap, bottom);
  return out;
}

/** The room the end labels need to the right of the lines ("● 110"), in graph units. */
export function labelRoom(values: number[][]): number {
  const last = values[values.length - 1] ?? [];
  return Math.max(0, ...last.map((v) => num(v).length + 2)) * 7.5 + 8;
}

function Lines({ values, label, x, y, w, h, seats }: {
  values: number[][]; label: string; x: number; y: number; w: number; h: number; seats: number;
}) {
  const all = values.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(1, ...all);
  const n = Math.max(1, values.length - 1);
  const px = (i: number) => x + (i / n) * w;
  const py = (v: number) => y + h - ((v - lo) / (hi - lo)) * h;
  const ends = spread(values[values.length - 1].map((v) => py(v) + 4), 12, y + 4, y + h + 8);
  return (
    <g>
      <text x={x} y={y - 6} class="graph-label">{label}</text>
      <line x1={x} y1={y + h} x2={x + w} y2={y + h} class="graph-axis" />
      <text x={x - 4} y={py(hi) + 4} class="graph-tick">{num(hi)}</text>
      <text x={x - 4} y={py(lo) + 4} class="graph-tick">{num(lo)}</text>
      {Array.from({ length: seats }, (_, s) => {
        const d = values.map((v, i) => `${i ? "L" : "M"}${px(i).toFixed(1)},${py(v[s]).toFixed(1)}`).join(" ");
        const last = values[values.length - 1][s];
        const endY = ends[s];
        return (
          <g key={s}>
            <path d={d} class="graph-line" stroke={PLAYER_COLOURS[s]} stroke-dasharray={["", "6 3", "2 3", "10 3 2 3"][s]} />
            <text x={px(n) + 4} y={endY} class="graph-end" fill={PLAYER_COLOURS[s]}>{PLAYER_SYMBOL[s]} {num(last)}</text>
          </g>
        );
      })}
    </g>
  );
}

/** The graph of each seat's VP and money over the game, with the canal/rail boundary. */
export function ScoreGraph({ points, log, names, upTo }: {
  points: Point[];
  log: LogEntry[];
  names: (string | null)[];
  upTo?: number;
}): JSX.Element {
  const shown = points.slice(0, (upTo ?? points.length - 1) + 1);
  const seats = points[0].vp.length;
  const W = 360;
  const rail = roundMarks(log).find((m) => m.era === "rail");
  const n = Math.max(1, shown.length - 1);
  const final = shown[shown.length - 1];
  // room on the right for the widest end label, so that none is cut ("£110" read "11")
  const room = Math.max(labelRoom(shown.map((p) => p.vp)), labelRoom(shown.map((p) => p.money)));
  return (
    <figure class="graph panel" data-testid="score-graph"
      data-final={final.vp.map((v, s) => `${s}:${v}:${final.money[s]}`).join(",")}>
      <figcaption class="panel-title">{t("history.title")}</figcaption>
      <svg viewBox={`0 0 ${30 + W + room} 250`} role="img"
        aria-label={t("history.graph_label", {
          n: shown.length - 1,
          players: final.vp.map((v, s) => t("history.graph_player", { name: names[s] ?? PLAYER_NAMES[s], vp: v, money: money(final.money[s]) })).join(t("list.separator")),
        })}>
        {rail && rail.at <= n && (
          <g>
            <line x1={30 + (rail.at / n) * W} y1={10} x2={30 + (rail.at / n) * W} y2={240} class="graph-era" />
            <text x={30 + (rail.at / n) * W + 3} y={20} class="graph-tick" text-anchor="start">{t("history.rail_era")}</text>
          </g>
        )}
        <Lines values={shown.map((p) => p.vp)} label={t("log.col_vp")} x={30} y={24} w={W} h={90} seats={seats} />
        <Lines values={shown.map((p) => p.money)} label={t("history.money_axis")} x={30} y={146} w={W} h={90} seats={seats} />
      </svg>
      <div class="graph-key">
        {Array.from({ length: seats }, (_, s) => (
          <span key={s} style={{ color: PLAYER_COLOURS[s] }}>{PLAYER_SYMBOL[s]} <span class="graph-name">{names[s] ?? PLAYER_NAMES[s]}</span></span>
        ))}
      </div>
    </figure>
  );
}

/** "Alice (Red ●) wins with 132 VP", or who shares first place. */
export function winnerLine(view: View, names: (string | null)[]): string | null {
  if (!view.is_over || !view.winner_order || !view.ranks) return null;
  const who = (s: number) => seatWithSymbol(s, names);
  const first = view.winner_order.filter((s) => view.ranks![s] === 1);
  const vp = view.players[first[0]].vp;
  if (first.length > 1) return t("history.winners", { who: list(first.map(who)), vp });
  return t("history.winner", { who: who(first[0]), vp });
}

export function WinnerLine({ view, names }: { view: View; names: (string | null)[] }): JSX.Element | null {
  const line = winnerLine(view, names);
  return line ? <div class="winner" data-testid="winner" role="status"><Icon name="trophy" size={20} /> {line}</div> : null;
}

/** Every move, under its era and round, each a button that jumps to the board after it. */
export function MoveList({ log, names, current, onJump }: { log: LogEntry[]; names?: Names; current: number; onJump: (n: number) => void }): JSX.Element {
  const marks = roundMarks(log);
  const heads = new Map(marks.map((m) => [m.at, m]));
  return (
    <nav class="move-list panel" data-testid="move-list" aria-label={t("history.moves")}>
      <div class="panel-title">{t("history.moves")}</div>
      <button type="button" class={`move${current === 0 ? " current" : ""}`} onClick={() => onJump(0)} aria-current={current === 0 ? "step" : undefined}>
        {t("history.start")}
      </button>
      {log.map((e, i) => (
        <div key={e.seq}>
          {heads.has(i) && (
            <div class="move-round" data-round-mark>{t("history.round_mark", { era: heads.get(i)!.era, round: heads.get(i)!.round })}</div>
          )}
          <button type="button" class={`move${current === i + 1 ? " current" : ""}`} data-move={i + 1}
            aria-current={current === i + 1 ? "step" : undefined} onClick={() => onJump(i + 1)}>
            <span class="move-n">{num(i + 1)}.</span> <span style={{ color: PLAYER_COLOURS[e.seat] }}>{PLAYER_SYMBOL[e.seat]}</span> {entryLine(e, names)}
          </button>
        </div>
      ))}
    </nav>
  );
}
