// The game log in words, and the end-of-game summary.
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { LogEntry, Quote, View } from "../api/types";
import { money, PLAYER_COLOURS, PLAYER_NAMES } from "../logic/names";
import { actionWords, quoteFromViews } from "../logic/words";
import { Chip } from "./Panels";

export function logLine(e: LogEntry, n: number, frames: Map<number, View>, quotes?: Map<number, Quote>): string {
  const before = frames.get(n - 1);
  const after = frames.get(n);
  const quote = quotes?.get(n) ?? quoteFromViews(before, after, e.seat);
  return actionWords(e.action, e.seat, { quote, before, after });
}

export function GameLogPanel({ entries, frames, quotes, current, onJump }: {
  entries: LogEntry[];
  frames: Map<number, View>;
  quotes?: Map<number, Quote>;
  current?: number;
  onJump?: (n: number) => void;
}): JSX.Element {
  const rows = entries.map((e, i) => ({ e, n: i + 1 }));
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    // after the lines above have their final words (frames arrive in the background)
    const t = setTimeout(() => {
      const el = list.current?.querySelector("li.current") as HTMLElement | null;
      if (el && list.current) list.current.scrollTop = el.offsetTop - list.current.offsetTop - 60;
    }, 120);
    return () => clearTimeout(t);
  }, [current]);
  return (
    <div class="log panel" data-testid="log">
      <div class="panel-title">Log</div>
      {rows.length === 0 && <div class="muted">No moves yet.</div>}
      <ol reversed={!onJump} ref={list}>
        {(onJump ? rows : [...rows].reverse()).map(({ e, n }) => (
          <li key={n} class={`${current === n ? "current" : ""}${onJump ? " jump" : ""}`} data-n={n}
            style={{ borderLeftColor: PLAYER_COLOURS[e.seat] }} onClick={onJump ? () => onJump(n) : undefined}>
            <span class="n">{n}.</span> {logLine(e, n, frames, quotes)}
          </li>
        ))}
      </ol>
    </div>
  );
}

export function Summary({ view, names }: { view: View; names: (string | null)[] }): JSX.Element {
  const order = view.winner_order ?? view.players.map((p) => p.seat);
  const era = (e: number, seat: number) => view.era_scores[e]?.[seat];
  return (
    <div class="summary panel" data-testid="summary">
      <div class="panel-title">Final scores</div>
      <table>
        <thead>
          <tr>
            <th>#</th>
            <th>Player</th>
            <th title="Canal era: VP from links">Canal links</th>
            <th title="Canal era: VP from industries">Canal ind.</th>
            <th title="Rail era: VP from links">Rail links</th>
            <th title="Rail era: VP from industries">Rail ind.</th>
            <th>VP</th>
            <th>Money</th>
          </tr>
        </thead>
        <tbody>
          {order.map((seat, i) => {
            const p = view.players[seat];
            return (
              <tr key={seat}>
                <td>{view.ranks ? view.ranks[seat] : i + 1}</td>
                <td class="who"><Chip seat={seat} /> {names[seat] ?? PLAYER_NAMES[seat]}</td>
                <td>{era(0, seat)?.links ?? "–"}</td>
                <td>{era(0, seat)?.industries ?? "–"}</td>
                <td>{era(1, seat)?.links ?? "–"}</td>
                <td>{era(1, seat)?.industries ?? "–"}</td>
                <td><b>{p.vp}</b></td>
                <td>{money(p.money)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
