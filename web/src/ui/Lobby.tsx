// The lobby: seats, the invite link, joining with a name, the host adding bots.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { api, type ConnStatus, type SeatToken, seats } from "../api/client";
import type { BotLevel, GameInfo } from "../api/types";
import { PLAYER_NAMES } from "../logic/names";
import { Chip } from "./Panels";

export function inviteLink(id: string): string {
  return `${location.origin}${location.pathname}#/game/${id}`;
}

export function Lobby({ id, info, mine, conn, onJoined }: {
  id: string;
  info: GameInfo | null;
  mine: SeatToken | null;
  conn: ConnStatus;
  onJoined: (s: SeatToken) => void;
}): JSX.Element {
  const [name, setName] = useState(seats.lastName());
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);
  const [level, setLevel] = useState<BotLevel>("easy");
  const host = seats.hostToken(id);
  const link = inviteLink(id);
  const free = info ? info.seats.filter((s) => !s.taken).length : 0;
  // a seat this browser held but the host emptied (or gave to someone else) is not ours now
  const held = mine && info?.seats[mine.seat]?.taken && info.seats[mine.seat].name === mine.name ? mine : null;
  const expired = info?.status === "expired";
  const cancelled = info?.status === "cancelled";
  const closed = expired || cancelled;

  async function join(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const j = await api.join(id, name.trim());
      seats.setLastName(name.trim());
      onJoined({ seat: j.seat, token: j.token, name: name.trim() });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  async function hostDo(step: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await step();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  const setListed = (listed: boolean) => host && hostDo(() => api.setListed(id, host, listed));
  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      const el = document.getElementById("invite") as HTMLInputElement | null;
      el?.select();
      setCopied(document.execCommand?.("copy") ?? false);
    }
  }

  return (
    <div class="page lobby" data-testid="lobby">
      <a href="#/">← All games</a>
      <h1>{info?.name ?? "Game"}</h1>
      {closed ? <p class="message bad" data-testid="closed">
        {expired ? "This game expired: nobody joined it in time." : "The host called this game off."}</p> : (
        <p>
          Waiting for players: {free} seat{free === 1 ? "" : "s"} free. The game starts when every seat is taken.
          {conn === "reconnecting" && <span class="conn"> Reconnecting…</span>}
        </p>
      )}
      <div class="invite">
        <label>Invite link: <input id="invite" readOnly value={link} onFocus={(e) => (e.target as HTMLInputElement).select()} /></label>
        <button type="button" onClick={copy} data-testid="copy-invite">{copied ? "Copied ✓" : "Copy invite link"}</button>
      </div>
      <ul class="seats" data-testid="seats">
        {info?.seats.map((s) => (
          <li key={s.seat} class={s.taken ? "taken" : "free"}>
            <Chip seat={s.seat} /> {PLAYER_NAMES[s.seat]}:{" "}
            {s.taken ? <b>{s.name}{s.bot ? " (bot)" : ""}{s.bot && <span class="bot-level" data-testid={`bot-level-${s.seat}`}> {s.bot_level ?? "easy"}</span>}{held?.seat === s.seat ? " — you" : ""}</b> : <i>free</i>}
            {host && s.taken && !closed && (
              <button type="button" class="small" disabled={busy} data-testid={`remove-${s.seat}`}
                onClick={() => hostDo(() => api.removeSeat(id, host, s.seat))}>Remove</button>
            )}
          </li>
        ))}
      </ul>
      {!held && free > 0 && !closed && (
        <form onSubmit={join} class="join">
          <label>Your name: <input name="name" value={name} maxLength={40} required onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
          <button type="submit" disabled={busy || !name.trim()} data-testid="join">Join</button>
        </form>
      )}
      {held && <p>You are seated as {PLAYER_NAMES[held.seat]} ({held.name}).</p>}
      {host && free > 0 && !closed && (
        <label class="listed">
          <input type="checkbox" checked={info?.listed ?? false} disabled={busy} data-testid="listed"
            onChange={(e) => setListed((e.target as HTMLInputElement).checked)} />{" "}
          Listed on this server's home page
        </label>
      )}
      {host && free > 0 && !closed && (
        <span class="add-bot">
          <button type="button" onClick={() => host && hostDo(() => api.addBot(id, host, level))} disabled={busy} data-testid="add-bot">Add a bot</button>{" "}
          <label>level <select value={level} disabled={busy} data-testid="bot-level"
            onChange={(e) => setLevel((e.target as HTMLSelectElement).value as BotLevel)}>
            <option value="easy">easy</option><option value="medium">medium</option><option value="hard">hard</option>
          </select></label>
        </span>
      )}
      {host && !closed && (
        <button type="button" disabled={busy} data-testid="cancel-game"
          onClick={() => confirm("Call this game off? Nobody will be able to join it.") && hostDo(() => api.cancel(id, host))}>Cancel the game</button>
      )}
      {error && <div class="message bad">{error}</div>}
    </div>
  );
}
