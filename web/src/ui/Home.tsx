import { num, t } from "../i18n";
// Home: create a game; the listed games to join, spectate or replay. The first page is loaded
// once; after that only the games that changed are fetched (the server's `changes` token), and
// older pages on demand.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError, seats } from "../api/client";
import { player } from "../api/player";
import type { ClockChoice, GameInfo, GameList } from "../api/types";
import { seatName } from "../logic/names";
import { ClockPicker, clockRangeText, clockText, NO_CLOCK } from "./Clocks";
import { Desk } from "./Desk";

const POLL_MS = 5000;

/** An expired or cancelled game: nobody will ever play it. */
const closed = (g: GameInfo) => g.status === "expired" || g.status === "cancelled";

/** Merge changed games into the list: newest first, closed games dropped. */
export function mergeGames(list: GameInfo[], changed: GameInfo[]): GameInfo[] {
  const byId = new Map(list.map((g) => [g.id, g]));
  const fresh: GameInfo[] = [];
  for (const g of changed) {
    if (byId.has(g.id)) byId.set(g.id, g);
    else fresh.push(g);
  }
  return [...fresh.reverse(), ...list.map((g) => byId.get(g.id)!)].filter((g) => !closed(g));
}

export function Home(): JSX.Element {
  const [seated, setSeated] = useState<Set<string>>(new Set()); // games the desk says are the player's
  const [games, setGames] = useState<GameInfo[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [players, setPlayers] = useState(2);
  const [name, setName] = useState("");
  const [listed, setListed] = useState(false);
  const [clock, setClock] = useState<ClockChoice>(NO_CLOCK);
  const [shared, setShared] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // the host lets only holders of the server's invite code create games: asked once refused
  const [code, setCode] = useState<string | null>(null);
  const changes = useRef<string | null>(null);
  useEffect(() => {
    document.title = t("app.title"); // every render: a language change renames the tab too
  });

  useEffect(() => {
    let stop = false;
    const fail = (e: Error) => setError(e.message);
    api.listGames().then((page: GameList) => {
      if (stop) return;
      setGames(page.games.filter((g) => !closed(g)));
      setNext(page.next);
      changes.current = page.changes;
    }).catch(fail);
    const t = setInterval(() => {
      if (changes.current === null) return;
      api.listGames({ changedAfter: changes.current }).then((page) => {
        if (stop) return;
        changes.current = page.changes;
        if (page.games.length) setGames((list) => mergeGames(list ?? [], page.games));
      }).catch(fail);
    }, POLL_MS);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, []);

  async function more() {
    if (!next) return;
    try {
      const page = await api.listGames({ cursor: next });
      setGames((list) => [...(list ?? []), ...page.games.filter((g) => !closed(g))]);
      setNext(page.next);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  async function create(e: Event) {
    e.preventDefault();
    setBusy(true);
    try {
      await player(); // the browser's player first: the host's game is theirs (their desk, a policy)
      const c = await api.createGame(players, name.trim() || t("home.default_name"), listed,
        { clock, shared_screen: shared, ...(code ? { invite_code: code.trim() } : {}) });
      seats.setHostToken(c.id, c.host_token);
      seats.setInvite(c.id, c.invite);
      location.hash = `#/game/${c.id}`;
    } catch (err) {
      if (err instanceof ApiError && err.code === "create_refused" && err.reason === "invite") setCode((c) => c ?? "");
      setError(err instanceof ApiError && err.reason === "clock_range" && err.params ? clockRangeText(err.params)
        : err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  }

  return (
    <div class="page home" data-testid="home">
      <h1>{t("app.title")}</h1>
      {/* a returning player's games first (nothing for a first visit): on a phone the form
          below is a screen high */}
      <Desk onGames={(ids) => setSeated(new Set(ids))} />
      <form class="create panel" onSubmit={create}>
        <h2>{t("home.new_game")}</h2>
        <label>{t("home.name")} <input name="game-name" value={name} maxLength={40} placeholder={t("home.default_name")} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
        <label>{t("home.players")}{" "}
          <select name="players" value={players} onChange={(e) => setPlayers(Number((e.target as HTMLSelectElement).value))}>
            {[2, 3, 4].map((n) => <option key={n} value={n}>{num(n)}</option>)}
          </select>
        </label>
        {code !== null && (
          <label>{t("home.invite_code")} <input name="invite-code" value={code} maxLength={200} required
            onInput={(e) => setCode((e.target as HTMLInputElement).value)} /></label>
        )}
        <label title={t("home.listed_title")}>
          <input type="checkbox" name="listed" checked={listed} onChange={(e) => setListed((e.target as HTMLInputElement).checked)} />{" "}
          {t("home.listed")}
        </label>
        <ClockPicker value={clock} onChange={setClock} />
        <label title={t("home.shared_title")}>
          <input type="checkbox" name="shared-screen" checked={shared} onChange={(e) => setShared((e.target as HTMLInputElement).checked)} />{" "}
          {t("home.shared")}
        </label>
        <button type="submit" disabled={busy} data-testid="create">{t("home.create")}</button>
      </form>
      {error && <div class="message bad">{error}</div>}
      <h2>{t("home.listed_games")}</h2>
      {games === null ? <p>{t("home.loading")}</p> : games.length === 0 ? <p class="muted">{t("home.no_games")}</p> : (
        <table class="games" data-testid="games">
          <thead><tr><th>{t("home.col_game")}</th><th>{t("home.players")}</th><th>{t("home.col_status")}</th><th>{t("clock.legend")}</th><th></th></tr></thead>
          <tbody>
            {games.map((g) => {
              const free = g.seats.filter((s) => !s.taken).length;
              const mine = seats.get(g.id) ?? seated.has(g.id);
              return (
                <tr key={g.id} data-game={g.id}>
                  <td><bdi>{g.name}</bdi></td>
                  <td>{g.seats.map((s) => seatName(s) ?? "—").join(t("list.separator"))}</td>
                  <td>{t("home.status", { status: t(`status.${g.status}`), waiting: String(g.status === "waiting"), running: String(g.status === "running"), free, move: g.version })}</td>
                  <td data-testid="clock">{clockText(g.clock, true)}</td>
                  <td class="actions">
                    {g.status === "waiting" && <a href={`#/game/${g.id}`}>{mine ? t("home.open") : t("home.join")}</a>}
                    {g.status === "running" && <a href={`#/game/${g.id}`}>{mine ? t("home.play") : t("home.spectate")}</a>}
                    {g.status !== "waiting" && <a href={`#/replay/${g.id}`}>{t("home.replay")}</a>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {next && <button type="button" onClick={more} data-testid="more-games">{t("home.more")}</button>}
    </div>
  );
}
