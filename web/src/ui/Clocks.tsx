// Turn clocks and who plays for whom: each seat's time (counted down from the server's clock,
// never this browser's: the state message carries `server_time`), the bots standing in for
// players, and the player's own choices: resign, take my seat back, hand an idle seat to a bot.
// Also the clock choice of the create form and the words for a clock setting.
import type { JSX } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { api, type SeatToken } from "../api/client";
import type { ClockChoice, ClockView, StateMessage } from "../api/types";
import { PLAYER_NAMES } from "../logic/names";
import "./Clocks.css";
import { useBusy } from "./useBusy";

/** Seconds as a short duration: 1:05, 12:00, 3 h 20 min, 2 d 4 h. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function clockText(c: ClockChoice | ClockView): string {
  if (c.kind === "live") return `live, ${duration(c.reserve ?? 0)} each + ${duration(c.increment ?? 0)} a turn`;
  if (c.kind === "correspondence") return `${duration(c.per_turn ?? 0)} per turn`;
  return c.handoff_after ? `none (an idle seat may go to a bot after ${duration(c.handoff_after)})` : "none";
}

const STAND_IN: Record<string, string> = {
  timeout: "ran out of time",
  resigned: "resigned",
  handover: "was away",
};

export const NO_CLOCK: ClockChoice = { kind: "none", reserve: 0, increment: 0, per_turn: 0, handoff_after: 0 };

/** The create form's clock: none, live (reserve + increment) or correspondence (per turn). */
export function ClockPicker({ value, onChange }: { value: ClockChoice; onChange: (c: ClockChoice) => void }): JSX.Element {
  const minutes = (v: number | undefined) => String((v ?? 0) / 60);
  const num = (e: Event) => Number((e.target as HTMLInputElement).value) * 60;
  return (
    <fieldset class="clock-picker" data-testid="clock-picker">
      <legend>Turn clock</legend>
      <select name="clock" aria-label="Turn clock" value={value.kind} onChange={(e) => {
        const kind = (e.target as HTMLSelectElement).value as ClockChoice["kind"];
        onChange(kind === "live" ? { ...NO_CLOCK, kind, reserve: 1800, increment: 30 }
          : kind === "correspondence" ? { ...NO_CLOCK, kind, per_turn: 86400 } : NO_CLOCK);
      }}>
        <option value="none">No clock</option>
        <option value="live">Live: a reserve each, plus time per turn</option>
        <option value="correspondence">Correspondence: time per turn</option>
      </select>
      {value.kind === "live" && <>
        <label>Reserve (min) <input type="number" name="reserve" min="0" step="any" value={minutes(value.reserve)}
          onInput={(e) => onChange({ ...value, reserve: num(e) })} /></label>
        <label>+ per turn (min) <input type="number" name="increment" min="0" step="any" value={minutes(value.increment)}
          onInput={(e) => onChange({ ...value, increment: num(e) })} /></label>
      </>}
      {value.kind === "correspondence" &&
        <label>Per turn (min) <input type="number" name="per-turn" min="0" step="any" value={minutes(value.per_turn)}
          onInput={(e) => onChange({ ...value, per_turn: num(e) })} /></label>}
      {value.kind === "none" &&
        <label>Hand an idle seat to a bot after (min, 0: never) <input type="number" name="handoff-after" min="0" step="any"
          value={minutes(value.handoff_after)} onInput={(e) => onChange({ ...value, handoff_after: num(e) })} /></label>}
    </fieldset>
  );
}

/** The server's clock now, from the last state message and how long ago it came. */
function useServerNow(st: StateMessage): number {
  const received = useMemo(() => Date.now() / 1000, [st]);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setTick((k) => k + 1), 250);
    return () => clearInterval(t);
  }, []);
  void tick;
  return st.server_time + (Date.now() / 1000 - received);
}

export function Clocks({ id, st, mine, names }: {
  id: string;
  st: StateMessage;
  mine: SeatToken | null;
  names: (string | null)[];
}): JSX.Element | null {
  const now = useServerNow(st);
  const { busy, error, run } = useBusy();
  const { clock, seats } = st;
  const view = st.view;
  if (!view) return null;
  const running = st.status === "running";
  const mover = running ? view.current_seat : null;
  const me = st.seat;
  const mySeat = me !== null ? seats[me] : null;
  const anyStandIn = seats.some((s) => s.stand_in);
  if (!running && !anyStandIn) return null;
  if (clock.kind === "none" && !clock.handoff_after && me === null && !anyStandIn) return null;

  const token = mine?.token ?? null;
  const time = (seat: number): string | null => {
    const s = seats[seat];
    if (s.bot || s.stand_in || !running) return null;
    if (seat === mover && clock.deadline !== null) return duration(clock.deadline - now);
    if (clock.kind === "live" && s.reserve !== null && s.reserve !== undefined) return duration(s.reserve);
    return null;
  };
  const idle = mover !== null && clock.kind === "none" && clock.handoff_after > 0 && clock.turn_started !== null
    ? now - clock.turn_started : null;

  return (
    <div class="panel clocks" data-testid="clocks" data-clock={clock.kind}>
      <ul>
        {seats.map((s) => {
          const t = time(s.seat);
          const low = s.seat === mover && clock.deadline !== null && clock.deadline - now < 10;
          return (
            <li key={s.seat} class={s.seat === mover ? "moving" : ""} data-testid={`clock-${s.seat}`}>
              <span class="who">{names[s.seat] ?? PLAYER_NAMES[s.seat]}</span>
              {t !== null && <span class={`time${low ? " low" : ""}`}>{t}</span>}
              {s.stand_in && <span class="stand-in" data-testid={`stand-in-${s.seat}`}>
                a bot plays for {names[s.seat] ?? PLAYER_NAMES[s.seat]} ({STAND_IN[s.stand_in] ?? s.stand_in})</span>}
              {token && me !== null && s.seat === mover && s.seat !== me && idle !== null && !s.bot && !s.stand_in &&
                idle >= clock.handoff_after && (
                <button type="button" class="small" disabled={busy} data-testid={`hand-over-${s.seat}`}
                  onClick={() => run(() => api.handOver(id, token, s.seat, st.version))}>Let a bot play for them</button>
              )}
            </li>
          );
        })}
      </ul>
      {running && token && mySeat && (mySeat.stand_in === "timeout" || mySeat.stand_in === "handover") && (
        <button type="button" disabled={busy} data-testid="take-over" onClick={() => run(() => api.takeOver(id, token))}>
          I'm back: take my seat</button>
      )}
      {running && token && mySeat && !mySeat.stand_in && (
        <button type="button" class="small" disabled={busy} data-testid="resign"
          onClick={() => confirm("Resign? A bot plays your seat to the end.") && run(() => api.resign(id, token, st.version))}>
          Resign</button>
      )}
      {error && <div class="message bad">{error}</div>}
    </div>
  );
}
