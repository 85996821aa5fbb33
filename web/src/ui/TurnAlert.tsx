// Turn awareness: when the player's turn comes while the tab is hidden, a short chime (Web
// Audio: no sound file) and a system notification (the Notification API, once allowed); the
// tab title says it too. One mute switch, remembered in localStorage, silences both. Also the
// "since your last turn" summary: the others' moves, numbered in order (the board shows the
// same numbers where each move happened).
import { Icon } from "./icons";
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { LogEntry } from "../api/types";
import type { Targets } from "../board/Board";
import { touched } from "../board/touched";
import { t } from "../i18n";
import { entryLine, type Names } from "../logic/events";

const MUTE_KEY = "brass.mute";

export function isMuted(): boolean {
  return localStorage.getItem(MUTE_KEY) === "1";
}

function chime(): void {
  const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) return;
  try {
    const ctx = new Ctx();
    const now = ctx.currentTime;
    for (const [i, f] of [660, 880].entries()) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, now + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.25, now + i * 0.18 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.18 + 0.3);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + i * 0.18);
      osc.stop(now + i * 0.18 + 0.32);
    }
    setTimeout(() => void ctx.close(), 1000);
  } catch {
    // no audio device: the title and the notification still say it
  }
}

/** What the alert did, for the browser tests (`window.__brassAlerts`). */
function record(what: string): void {
  const w = window as unknown as { __brassAlerts?: string[] };
  (w.__brassAlerts ??= []).push(what);
}

/** Chime and notify when `myTurn` becomes true while the tab is hidden (unless muted). */
export function useTurnAlert(myTurn: boolean, gameName: string): void {
  const was = useRef(myTurn);
  useEffect(() => {
    const came = myTurn && !was.current;
    was.current = myTurn;
    if (!came || !document.hidden) return;
    if (isMuted()) {
      record("muted");
      return;
    }
    chime();
    record("chime");
    if ("Notification" in window && Notification.permission === "granted") {
      try {
        const n = new Notification(t("alert.notification"), { body: gameName, tag: "brass-turn" });
        n.onclick = () => { window.focus(); n.close(); };
        record("notification");
      } catch {
        // some browsers allow notifications only from a service worker
      }
    }
  }, [myTurn]);
}

/** The mute switch; unmuting also asks for notifications (a click is needed for that). */
export function MuteSwitch(): JSX.Element {
  const [muted, setMuted] = useState(isMuted);
  const toggle = () => {
    const next = !muted;
    localStorage.setItem(MUTE_KEY, next ? "1" : "0");
    setMuted(next);
    if (!next && "Notification" in window && Notification.permission === "default") void Notification.requestPermission();
  };
  return (
    <button type="button" class="mute" data-testid="mute" aria-pressed={muted} onClick={toggle}
      title={muted ? t("alert.off_title") : t("alert.on_title")}>
      {muted ? <><Icon name="bellOff" /> {t("alert.off")}</> : <><Icon name="bell" /> {t("alert.on")}</>}
    </button>
  );
}

/** The log entries since the player's own last one (the others' moves), oldest first. */
export function sinceMyLastTurn(log: LogEntry[], seat: number | null): LogEntry[] {
  if (seat === null) return [];
  let i = log.length;
  while (i > 0 && log[i - 1].seat !== seat) i--;
  return i === 0 && !log.some((e) => e.seat === seat) ? log.slice(-8) : log.slice(i);
}

/** The board numbers of those moves: "slot:loc:i" / "link:id" -> move numbers, in order. */
export function orderMarks(entries: LogEntry[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const t: Targets = touched(e.action);
    const keys = [...(t.slots ?? []), ...(t.tiles ?? [])].map((k) => `slot:${k}`).concat([...(t.links ?? [])].map((l) => `link:${l}`));
    for (const k of keys) out.set(k, [...(out.get(k) ?? []), i + 1]);
  });
  return out;
}

export function SinceLastTurn({ entries, names, onClose }: { entries: LogEntry[]; names?: Names; onClose: () => void }): JSX.Element | null {
  if (entries.length === 0) return null;
  return (
    <div class="panel since" data-testid="since-last-turn" aria-live="polite">
      <div class="details-head">
        <b>{t("alert.since")}</b>
        <button type="button" class="close" aria-label={t("alert.hide_since")} onClick={onClose}><Icon name="close" /></button>
      </div>
      <ol>{entries.map((e) => <li key={e.seq}>{entryLine(e, names)}</li>)}</ol>
    </div>
  );
}
