// The lobby: seats, the invite link (with the invite secret an unlisted game needs; the host
// may renew it), joining with a name, the host adding bots.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, type ConnStatus, type Host, type SeatToken, seats } from "../api/client";
import { player } from "../api/player";
import type { BotLevel, GameInfo } from "../api/types";
import { seatLink } from "../logic/links";
import { t } from "../i18n";
import { PLAYER_NAMES, seatName } from "../logic/names";
import { clockText } from "./Clocks";
import { Chip } from "./Panels";
import { useBusy } from "./useBusy";

/** The bots' levels, easiest first (the server's BotLevel). */
export const BOT_LEVELS: BotLevel[] = ["easy", "medium", "hard"];

/** The link that lets someone join: with the invite secret if this browser knows it (a listed
 * game needs none: its plain link is enough). */
export function inviteLink(id: string, invite: string | null): string {
  return invite ? seatLink(location.origin, location.pathname, id, "invite", invite)
    : `${location.origin}${location.pathname}#/game/${id}`;
}

/** Why a cancelled game is closed: its host or the server's admin called it off (null: a
 * game cancelled before the server kept who). */
function calledOff(by: GameInfo["called_off_by"]): string {
  return by === "host" ? t("lobby.cancelled") : by === "admin" ? t("lobby.cancelled_by_admin") : t("lobby.called_off");
}

/** Whether the invite secret this browser holds no longer lets it join (the host renewed the
 * link), asked once when the lobby opens (`ask`: an unlisted game, and this browser is not its
 * host): the page says so before a name is typed, where the join was refused only after. */
function useStaleInvite(id: string, invite: string | null, ask: boolean): boolean {
  const [stale, setStale] = useState<string | null>(null); // the secret found stale
  useEffect(() => {
    if (!invite || !ask) return;
    let stop = false;
    api.checkInvite(id, invite).then((r) => { if (!stop && !r.valid) setStale(invite); }).catch(() => undefined);
    return () => {
      stop = true;
    };
  }, [id, invite, ask]);
  return stale !== null && stale === invite;
}

export function Lobby({ id, info, mine, host, conn, onJoined }: {
  id: string;
  info: GameInfo | null;
  mine: SeatToken | null;
  /** how this browser hosts the game (null: it does not) */
  host: Host | null;
  conn: ConnStatus;
  onJoined: (s: SeatToken) => void;
}): JSX.Element {
  const [name, setName] = useState(seats.lastName());
  useEffect(() => { // no name used here before: the player's display name, if they chose one
    if (!name) player().then((me) => me?.name && setName((typed) => typed || me.name || "")).catch(() => undefined);
  }, []);
  const [copied, setCopied] = useState(false);
  useEffect(() => { // "Copied ✓" for a moment, then the button's own words again
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const { busy, error, run: hostDo } = useBusy();
  const [level, setLevel] = useState<BotLevel>("medium"); // a first game against a bot that plays
  const heldInvite = seats.invite(id);
  const stale = useStaleInvite(id, heldInvite, host === null && !info?.listed);
  const invite = stale ? null : heldInvite; // a renewed link's secret lets nobody join
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
      await player(); // the browser's player first: the seat is theirs (on their desk), not the link's alone
      const j = await api.join(id, name.trim(), invite);
      seats.setLastName(name.trim());
      onJoined({ seat: j.seat, token: j.token, name: name.trim() });
      if (info?.shared_screen) setName(""); // the next player at this screen types theirs
    });
  }
  const setListed = (listed: boolean) => host && hostDo(() => api.setListed(id, host, listed));
  const renewInvite = () => host && confirm(t("lobby.confirm_renew")) &&
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
      <a href="#/">{t("lobby.all_games")}</a>
      <h1><bdi>{info?.name ?? t("lobby.untitled")}</bdi></h1>
      {closed ? <p class="message bad" data-testid="closed">
        {expired ? t("lobby.expired") : calledOff(info?.called_off_by)}</p> : (
        <p>
          {t("lobby.waiting", { free })}
          {(conn === "reconnecting" || conn === "unreachable") && <span class="conn"> {t(`conn.${conn}`)}</span>}
        </p>
      )}
      {info && <p class="muted" data-testid="clock-setting">
        {t("lobby.clock", { clock: clockText(info.clock) })}{info.shared_screen ? t("lobby.shared") : ""}</p>}
      {(invite || info?.listed) && !closed && <div class="invite">
        <label>{t("lobby.invite_link")} <input id="invite" readOnly value={link} onFocus={(e) => (e.target as HTMLInputElement).select()} /></label>
        <button type="button" onClick={copy} data-testid="copy-invite">{copied ? t("links.copied") : t("lobby.copy_invite")}</button>
      </div>}
      {host && !closed && (
        <button type="button" class="small" disabled={busy} onClick={renewInvite} data-testid="renew-invite">
          {invite ? t("lobby.renew_invite") : t("lobby.make_invite")}</button>
      )}
      {!invite && !host && !info?.listed && !held && !closed &&
        <p class="muted" data-testid="needs-invite">{stale ? t("lobby.invite_stale") : t("lobby.needs_invite")}</p>}
      <ul class="seats" data-testid="seats">
        {info?.seats.map((s) => (
          <li key={s.seat} class={s.taken ? "taken" : "free"}>
            <Chip seat={s.seat} /> {PLAYER_NAMES[s.seat]}:{" "}
            {s.taken ? <b><bdi>{seatName(s)}</bdi>{s.bot ? t("lobby.bot") : ""}{s.bot && <span class="bot-level" data-testid={`bot-level-${s.seat}`}> {t(`bot.${s.bot_level ?? "easy"}`)}</span>}{held?.seat === s.seat ? t("lobby.you") : ""}</b> : <i>{t("lobby.free")}</i>}
            {host && s.taken && !closed && held?.seat !== s.seat && ( // not the host's own seat
              <button type="button" class="small" disabled={busy} data-testid={`remove-${s.seat}`}
                onClick={() => (s.bot || confirm(t("lobby.confirm_remove", { name: seatName(s) })))
                  && hostDo(() => api.removeSeat(id, host, s.seat))}>{t("lobby.remove")}</button>
            )}
          </li>
        ))}
      </ul>
      {(!held || info?.shared_screen) && free > 0 && !closed && (invite || info?.listed) && (
        <form onSubmit={join} class="join">
          <label>{t("lobby.your_name")} <input name="name" value={name} maxLength={40} required onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
          <button type="submit" disabled={busy || !name.trim()} data-testid="join">{t("home.join")}</button>
        </form>
      )}
      {held && <p>{t("lobby.seated", { colour: PLAYER_NAMES[held.seat], name: held.name })}</p>}
      {host && !closed && <div class="host-controls">
      {free > 0 && (
        <label class="listed">
          <input type="checkbox" checked={info?.listed ?? false} disabled={busy} data-testid="listed"
            onChange={(e) => setListed((e.target as HTMLInputElement).checked)} />{" "}
          {t("lobby.listed")}
        </label>
      )}
      {free > 0 && (
        <span class="add-bot">
          {/* the level first, then the button that adds a bot of it */}
          <label>{t("lobby.level")} <select value={level} disabled={busy} data-testid="bot-level"
            onChange={(e) => setLevel((e.target as HTMLSelectElement).value as BotLevel)}>
            {BOT_LEVELS.map((l) => <option key={l} value={l}>{t(`bot.${l}`)}</option>)}
          </select></label>{" "}
          <button type="button" onClick={() => host && hostDo(() => api.addBot(id, host, level))} disabled={busy} data-testid="add-bot">{t("lobby.add_bot")}</button>
        </span>
      )}
      <button type="button" disabled={busy} data-testid="cancel-game"
        onClick={() => confirm(t("lobby.confirm_cancel")) && hostDo(() => api.cancel(id, host))}>{t("lobby.cancel")}</button>
      </div>}
      {error && <div class="message bad">{error}</div>}
    </div>
  );
}
