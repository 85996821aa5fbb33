// The lobby: seats, the invite link (with the invite secret an unlisted game needs; the host
// may renew it), joining with a name, the host adding bots.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { api, type ConnStatus, type SeatToken, seats } from "../api/client";
import type { BotLevel, GameInfo } from "../api/types";
import { seatLink } from "../logic/links";
import { PLAYER_NAMES } from "../logic/names";
import { clockText } from "./Clocks";
import { Chip } from "./Panels";
import { useBusy } from "./useBusy";

/** The link that lets someone join: with the invite secret if this browser knows it (a listed
 * game needs none: its plain link is enough). */
export function inviteLink(id: string, invite: string | null): string {
  return invite ? seatLink(location.origin, location.pathname, id, "invite", invite)
    : `${location.origin}${location.pathname}#/game/${id}`;
}

export function Lobby({ id, info, mine, conn, onJoined }: {
  id: string;
  info: GameInfo | null;
  mine: SeatToken | null;
  conn: ConnStatus;
  onJoined: (s: SeatToken) => void;
}): JSX.Element {
  const [name, setName] = useState(seats.lastName());
  const [copied, setCopied] = useState(false);
  const { busy, error, run: hostDo } = useBusy();
  const [level, setLevel] = useState<BotLevel>("easy");
  const host = seats.hostToken(id);
  const invite = seats.invite(id);
  const link = inviteLink(id, invite);
  const free = info ? info.seats.filter((s) => !s.taken).length : 0;
  // a seat this browser held but the host emptied (or gave to someone else) is not ours now
  const held = mine && info?.seats[mine.seat]?.taken && info.seats[mine.seat].name === mine.name ? mine : null;
  const expired = info?.status === "expired";
  const cancelled = info?.status === "cancelled";
  const closed = expired || cancelled;

  function join(e: Event) {
    e.preventDefault();
    return hostDo(async () => {
      const j = await api.join(id, name.trim(), invite);
      seats.setLastName(name.trim());
      onJoined({ seat: j.seat, token: j.token, name: name.trim() });
    });
  }
  const setListed = (listed: boolean) => host && hostDo(() => api.setListed(id, host, listed));
  const renewInvite = () => host && confirm("Make a new invite link? The old one stops working.") &&
    hostDo(async () => seats.setInvite(id, (await api.renewInvite(id, host)).invite));
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
      {info && <p class="muted" data-testid="clock-setting">Clock: {clockText(info.clock)}{info.shared_screen ? " · one screen may hold several seats" : ""}</p>}
      {(invite || info?.listed) && <div class="invite">
        <label>Invite link: <input id="invite" readOnly value={link} onFocus={(e) => (e.target as HTMLInputElement).select()} /></label>
        <button type="button" onClick={copy} data-testid="copy-invite">{copied ? "Copied ✓" : "Copy invite link"}</button>
      </div>}
      {host && !closed && (
        <button type="button" class="small" disabled={busy} onClick={renewInvite} data-testid="renew-invite">
          {invite ? "Renew the invite link" : "Make an invite link"}</button>
      )}
      {!invite && !host && !info?.listed && !held && !closed &&
        <p class="muted" data-testid="needs-invite">This game is joined with its invite link: ask the host for it.</p>}
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
      {!held && free > 0 && !closed && (invite || info?.listed) && (
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
