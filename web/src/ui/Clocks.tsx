// Turn clocks and who plays for whom: each seat's time (counted down from the server's clock,
// never this browser's: the state message carries `server_time`), the bots standing in for
// players, and the player's own choices as the server allows them (`may`: resign, take my seat
// back, hand an idle seat to a bot from the time it says): no rule of its own.
// Also the clock choice of the create form and the words for a clock setting.
import type { JSX } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { api, type SeatToken } from "../api/client";
import type { ClockChoice, ClockPause, ClockSettings, ClockView, StateMessage } from "../api/types";
import { dateTime, isolate, t } from "../i18n";
import { PLAYER_NAMES } from "../logic/names";
import "./Clocks.css";
import { useBusy } from "./useBusy";

/** Seconds as a short duration: 1:05, 12:00, 3 h 20 min, 2 d 4 h. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 86400) return t("clock.days", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return t("clock.hours", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return t("clock.minutes", { m: Math.floor(s / 60), s: s % 60 });
}

/** A clock's settings in words: the lobby's line, and (`short`: without an untimed game's
 * hand-over of idle seats) each game of the home page's and the desk's lists. */
export function clockText(c: ClockChoice | ClockView | ClockSettings, short = false): string {
  if (c.kind === "live") return t("clock.live", { reserve: duration(c.reserve ?? 0), increment: duration(c.increment ?? 0) });
  if (c.kind === "correspondence") return t("clock.correspondence", { per: duration(c.per_turn ?? 0) });
  return c.handoff_after && !short ? t("clock.none_handoff", { after: duration(c.handoff_after) }) : t("clock.none");
}

/** The form's first choice: no clock, and a seat idle for three days may be handed to a bot by
 * the other players, so a game among friends cannot stall for good when one of them leaves (the
 * host may set 0: never). */
export const NO_CLOCK: ClockChoice = { kind: "none", reserve: 0, increment: 0, per_turn: 0, handoff_after: 3 * 86400 };

/** Each setting's unit in the form, in seconds: a live reserve in minutes and its increment in
 * seconds, a correspondence turn in hours, an idle seat's hand-over in days (all in minutes,
 * the form asked for 1440 a turn and 4320 before a hand-over). */
export const CLOCK_UNITS = { reserve: 60, increment: 1, per_turn: 3600, handoff_after: 86400 } as const;
type ClockField = keyof typeof CLOCK_UNITS;

/** The create form's clock: none, live (reserve + increment) or correspondence (per turn). */
export function ClockPicker({ value, onChange }: { value: ClockChoice; onChange: (c: ClockChoice) => void }): JSX.Element {
  const shown = (field: ClockField) => String(Math.round(((value[field] ?? 0) / CLOCK_UNITS[field]) * 1e6) / 1e6);
  const set = (field: ClockField) => (e: Event) =>
    onChange({ ...value, [field]: Number((e.target as HTMLInputElement).value) * CLOCK_UNITS[field] });
  return (
    <fieldset class="clock-picker" data-testid="clock-picker">
      <legend>{t("clock.legend")}</legend>
      <select name="clock" aria-label={t("clock.legend")} value={value.kind} onChange={(e) => {
        const kind = (e.target as HTMLSelectElement).value as ClockChoice["kind"];
        onChange(kind === "live" ? { ...NO_CLOCK, kind, reserve: 1800, increment: 30, handoff_after: 0 }
          : kind === "correspondence" ? { ...NO_CLOCK, kind, per_turn: 86400, handoff_after: 0 } : NO_CLOCK);
      }}>
        <option value="none">{t("clock.no_clock")}</option>
        <option value="live">{t("clock.live_choice")}</option>
        <option value="correspondence">{t("clock.correspondence_choice")}</option>
      </select>
      {value.kind === "live" && <>
        <label>{t("clock.reserve")} <input type="number" name="reserve" min="0" step="any" value={shown("reserve")}
          onInput={set("reserve")} /></label>
        <label>{t("clock.increment")} <input type="number" name="increment" min="0" step="any" value={shown("increment")}
          onInput={set("increment")} /></label>
      </>}
      {value.kind === "correspondence" &&
        <label>{t("clock.per_turn")} <input type="number" name="per-turn" min="0" step="any" value={shown("per_turn")}
          onInput={set("per_turn")} /></label>}
      {value.kind === "none" &&
        <label>{t("clock.handoff_after")} <input type="number" name="handoff-after" min="0" step="any"
          value={shown("handoff_after")} onInput={set("handoff_after")} /></label>}
    </fieldset>
  );
}

/** A setting of the picker the server refused as out of its range (reason `clock_range`: the
 * field and its range in seconds), in the picker's words and unit. */
export function clockRangeText(p: Record<string, unknown>): string {
  const labels: Record<string, string> = { reserve: t("clock.reserve"), increment: t("clock.increment"),
    per_turn: t("clock.per_turn"), handoff_after: t("clock.handoff_after") };
  // as durations ("0:30", "30 d 0 h"): a unit's fraction (0.00833 hours) says little
  return t("clock.out_of_range", { field: labels[String(p.field)] ?? String(p.field),
    least: duration(Number(p.least)), most: duration(Number(p.most)) });
}

/** The server's clock now, from the last state message and how long ago it came. */
function useServerNow(st: StateMessage): number {
  const received = useMemo(() => Date.now() / 1000, [st]);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((k) => k + 1), 250);
    return () => clearInterval(timer);
  }, []);
  void tick;
  return st.server_time + (Date.now() / 1000 - received);
}

const PAUSE_POLL_MS = 60_000; // a vacation may begin during a long correspondence turn

/** A correspondence game's clock as the server times it, with the mover's vacations taken
 * out (`GET /api/games/{id}/pause`): asked again at each new version and every minute. */
function usePause(id: string, st: StateMessage): ClockPause | null {
  const asks = st.status === "running" && st.clock.kind === "correspondence" && st.clock.deadline !== null;
  const [pause, setPause] = useState<ClockPause | null>(null);
  useEffect(() => {
    if (!asks) {
      setPause(null);
      return;
    }
    let stop = false;
    const ask = () => api.clockPause(id).then((p) => !stop && setPause(p)).catch(() => undefined);
    void ask();
    const timer = setInterval(ask, PAUSE_POLL_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [id, st.version, asks]);
  return asks ? pause : null;
}

/** What the clocks and the stand-in notice read: the game, its state, this browser's seat. */
type SeatClockProps = {
  id: string;
  st: StateMessage;
  mine: SeatToken | null;
  names: (string | null)[];
};

export function Clocks({ id, st, mine, names, onSend }: SeatClockProps & {
  /** told before this browser changes the game (a resignation, a seat handed over): the version
   * that brings is no news from elsewhere */
  onSend?: () => void;
}): JSX.Element | null {
  const now = useServerNow(st);
  const pause = usePause(id, st);
  const { busy, error, run } = useBusy();
  const { clock, seats } = st;
  const view = st.view;
  if (!view) return null;
  const running = st.status === "running";
  const mover = running ? view.current_seat : null;
  const me = st.seat;
  const may = st.may ?? null; // what this seat may do now: the server's rules, not guessed here
  const anyStandIn = seats.some((s) => s.stand_in);
  if (!running && !anyStandIn) return null;
  if (clock.kind === "none" && !clock.handoff_after && me === null && !anyStandIn) return null;

  const token = mine?.token ?? null;
  const away = pause?.away_until != null && pause.away_until > now ? pause.away_until : null;
  const deadline = pause?.deadline ?? clock.deadline;
  const time = (seat: number): string | null => {
    const s = seats[seat];
    if (s.bot || s.stand_in || !running) return null;
    if (seat === mover && deadline !== null) return duration(deadline - (away ?? now));
    if (clock.kind === "live" && s.reserve !== null && s.reserve !== undefined) return duration(s.reserve);
    return null;
  };
  // a seat the server would let this player hand to a bot, from the time it says
  const handable = (seat: number): boolean =>
    may?.hand_over.some((h) => h.seat === seat && now >= h.since) ?? false;

  return (
    <div class="panel clocks" data-testid="clocks" data-clock={clock.kind}>
      <ul>
        {seats.map((s) => {
          const left = time(s.seat);
          const low = s.seat === mover && away === null && deadline !== null && deadline - now < 10;
          return (
            <li key={s.seat} class={s.seat === mover ? "moving" : ""} data-testid={`clock-${s.seat}`}>
              <span class="who">{names[s.seat] ?? PLAYER_NAMES[s.seat]}</span>
              {left !== null && <span class={`time${low ? " low" : ""}`}><bdi>{left}</bdi></span>}
              {s.seat === mover && away !== null && <span class="muted" data-testid={`on-vacation-${s.seat}`}>
                {t("clock.on_vacation", { until: dateTime(away * 1000) })}</span>}
              {s.stand_in && <span class="stand-in" data-testid={`stand-in-${s.seat}`}>
                {t("clock.stand_in", { who: isolate(names[s.seat] ?? PLAYER_NAMES[s.seat]), reason: s.stand_in })}</span>}
              {token !== null && handable(s.seat) && (
                <button type="button" class="small" disabled={busy} data-testid={`hand-over-${s.seat}`}
                  onClick={() => { onSend?.(); run(() => api.handOver(id, token, s.seat, st.version)); }}>{t("clock.hand_over")}</button>
              )}
            </li>
          );
        })}
      </ul>
      {token !== null && may?.take_over && <TakeOver id={id} token={token} />}
      {token !== null && may?.resign && (
        <button type="button" class="small" disabled={busy} data-testid="resign"
          onClick={() => { if (confirm(t("clock.confirm_resign"))) { onSend?.(); run(() => api.resign(id, token)); } }}>
          {t("clock.resign")}</button>
      )}
      {error && <div class="message bad">{error}</div>}
    </div>
  );
}

/** "I'm back: take my seat": the seat back from the bot that plays it (the clocks panel's
 * button is `take-over`, the `notice`'s over the actions `take-over-notice`). */
function TakeOver({ id, token, notice = false }: { id: string; token: string; notice?: boolean }): JSX.Element {
  const { busy, error, run } = useBusy();
  return <>
    <button type="button" disabled={busy} data-testid={notice ? "take-over-notice" : "take-over"} onClick={() => run(() => api.takeOver(id, token))}>
      {t("clock.take_over")}</button>
    {error && <div class="message bad">{error}</div>}
  </>;
}

/** While a bot plays this browser's seat (its clock ran out, it was handed over, or resigned):
 * said where the actions are (the top of the action panel, a phone's bottom sheet), with the
 * button that takes the seat back when the server allows it. Nothing otherwise. */
export function StandInNotice({ id, st, mine, names }: SeatClockProps): JSX.Element | null {
  const me = st.seat;
  const reason = me !== null ? st.seats[me]?.stand_in : null;
  if (me === null || !reason || st.status !== "running") return null;
  const token = mine?.token ?? null;
  return (
    <div class="message stand-in-notice" role="status" data-testid="stand-in-notice">
      <p><b>{t("error.stand_in_playing")}</b></p>
      <p>{t("clock.stand_in", { who: isolate(names[me] ?? PLAYER_NAMES[me]), reason })}</p>
      {token !== null && st.may?.take_over && <TakeOver id={id} token={token} notice />}
    </div>
  );
}
