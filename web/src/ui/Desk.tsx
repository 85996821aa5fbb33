import { dateTime, isolate, list, num, t } from "../i18n";
// The desk (issue 24): every game of this browser's player, on any device, their turn first
// with the time left, then running, waiting, rematch offers, and finished games with places;
// and the games the player hosts without a seat in them (they host them from any device).
// Polled while the page is visible (GET /api/desk, revalidated with its ETag, so an unchanged
// desk costs a 304), and again as soon as the page is shown.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "../api/client";
import { player } from "../api/player";
import type { Desk as DeskPage, DeskGame } from "../api/types";
import { PLAYER_NAMES, seatName } from "../logic/names";
import { clockText, duration } from "./Clocks";
import { PushNotices } from "./PushNotices";
import { Vacation } from "./Vacation";

const POLL_MS = 5000;
const PAGE = 20;
/** Each section's heading, in the desk's order (the keys spelled out: the catalogues' test
 * finds every key used). */
const SECTIONS: [DeskGame["section"], () => string][] = [
  ["turn", () => t("desk.turn")], ["running", () => t("desk.running")],
  ["waiting", () => t("desk.waiting")], ["finished", () => t("desk.finished")]];

function Entry({ g, received }: { g: DeskGame; received: number }): JSX.Element {
  // the mover on vacation: their clock stands still (the server says what they will have left)
  const away = g.away_until;
  const left = g.time_left === null ? null
    : away !== null ? g.time_left : g.time_left - (Date.now() - received) / 1000;
  // whose clock it is, when it is another's: by name (by colour if they gave none), a bot's
  // default name in the page's language, as the games table names it
  const moving = g.section === "running" && g.to_move !== null ? g.seats.find((s) => s.seat === g.to_move) : undefined;
  const mover = moving ? seatName(moving) ?? PLAYER_NAMES[moving.seat] : null;
  // the others by name (by colour if they gave none), listed as the language lists; free seats counted
  const others = g.seats.filter((s) => !s.you && s.taken).map((s) => isolate(seatName(s) ?? PLAYER_NAMES[s.seat]));
  const free = g.seats.filter((s) => !s.taken).length;
  return (
    <li data-game={g.id} data-section={g.section} class={g.section === "turn" ? "my-turn" : ""}>
      <a href={g.section === "finished" ? `#/replay/${g.id}` : `#/game/${g.id}`}><bdi>{g.name}</bdi></a>{" "}
      {g.section === "turn" && <b data-testid="my-turn"> · {t("home.your_turn")}</b>}
      {left !== null && g.section !== "finished" && (
        <span class="muted" data-testid="time-left"> · {mover === null ? t("desk.time_left", { time: duration(left) })
          : t("desk.mover_time_left", { name: mover, time: duration(left) })}</span>
      )}
      {away !== null && g.section !== "finished" && (
        <span class="muted" data-testid="on-vacation"> · {mover === null ? t("clock.on_vacation", { until: dateTime(away) })
          : t("desk.mover_on_vacation", { name: mover, until: dateTime(away) })}</span>
      )}
      {g.place !== null && <span class="muted" data-testid="place"> · {t("desk.place", { place: g.place, players: g.players })}</span>}
      {others.length > 0 && <span class="muted"> · {t("desk.with", { names: list(others) })}</span>}
      {free > 0 && <span class="muted" data-testid="free-seats"> · {t("desk.free_seats", { count: free })}</span>}
      <ClockWords clock={g.clock} />
    </li>
  );
}

/** How fast a listed game is: its clock, as the lobby says it (short). */
function ClockWords({ clock }: { clock: DeskGame["clock"] }): JSX.Element {
  return <span class="muted" data-testid="clock"> · {t("lobby.clock", { clock: clockText(clock, true) })}</span>;
}

/** The player's desk; nothing until the first page is in (and nothing if it is empty). */
/** `onGames`: told the ids of the games on the page shown where the player holds a seat (the
 * home page's list then offers Play, not Spectate, on a device that has no link to them). */
export function Desk({ onGames }: { onGames?: (ids: string[]) => void } = {}): JSX.Element | null {
  const [page, setPage] = useState<{ desk: DeskPage; received: number } | null>(null);
  const [offset, setOffset] = useState(0);
  const [, tick] = useState(0);
  useEffect(() => {
    if (page) onGames?.(page.desk.games.map((g) => g.id));
  }, [page?.desk]);
  useEffect(() => {
    let stop = false;
    const load = () => {
      if (document.visibilityState === "hidden") return;
      player().then((me) => (me ? api.desk(offset, PAGE) : null)).then((read) => {
        if (!stop && read) setPage((old) => (old?.desk === read.desk ? old : read)); // unchanged: no render
      }).catch(() => undefined); // the next poll tries again
    };
    load();
    const timer = setInterval(load, POLL_MS);
    const second = setInterval(() => tick((k) => k + 1), 1000); // the time left counts down
    document.addEventListener("visibilitychange", load);
    return () => {
      stop = true;
      clearInterval(timer);
      clearInterval(second);
      document.removeEventListener("visibilitychange", load);
    };
  }, [offset]);
  if (!page || (!page.desk.total && !page.desk.invitations.length && !page.desk.hosting.length)) return null;
  const { desk, received } = page;
  return (
    <section class="my-games panel" data-testid="my-games">
      <h2>{t("home.my_games")}</h2>
      <PushNotices />
      <Vacation />
      {desk.invitations.length > 0 && (
        <>
          <h3>{t("desk.invitations")}</h3>
          <ul data-testid="desk-invitations">
            {desk.invitations.map((i) => (
              <li key={i.game_id} data-game={i.game_id}>
                <a href={`#/replay/${i.game_id}`}><bdi>{i.name}</bdi></a>{" "}
                <span class="muted">· {t("desk.rematch_offered")}</span>
                <ClockWords clock={i.clock} />
              </li>
            ))}
          </ul>
        </>
      )}
      {desk.hosting.length > 0 && (
        <div data-testid="desk-hosting">
          <h3>{t("desk.hosting")}</h3>
          <ul>
            {desk.hosting.map((h) => (
              <li key={h.id} data-game={h.id}>
                <a href={`#/game/${h.id}`}><bdi>{h.name}</bdi></a>{" "}
                <span class="muted">· {h.free > 0 ? t("desk.free_seats", { count: h.free }) : t("desk.hosting_running")}</span>
                <ClockWords clock={h.clock} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {SECTIONS.map(([section, title]) => {
        const games = desk.games.filter((g) => g.section === section);
        if (!games.length) return null;
        return (
          <div key={section} data-testid={`desk-${section}`}>
            <h3>{title()}</h3>
            <ul>{games.map((g) => <Entry key={g.id} g={g} received={received} />)}</ul>
          </div>
        );
      })}
      {(offset > 0 || desk.next !== null) && (
        <p class="desk-pages">
          {offset > 0 && <button type="button" onClick={() => setOffset(Math.max(0, offset - PAGE))}>{t("desk.newer")}</button>}{" "}
          <span class="muted">{t("desk.range", { from: num(offset + 1), to: num(offset + desk.games.length), total: num(desk.total) })}</span>{" "}
          {desk.next !== null && <button type="button" data-testid="desk-next" onClick={() => setOffset(desk.next ?? 0)}>{t("desk.older")}</button>}
        </p>
      )}
    </section>
  );
}
