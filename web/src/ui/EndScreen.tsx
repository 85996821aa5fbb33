import { isolate, num, signedNum, t } from "../i18n";
// The end screen's social part: each rated seat's rating change (GET ratings), and the rematch:
// offer it, answer it, start it without the absent, then go to it. The offer is read again
// every few seconds while it waits for answers; once the new game is made, this browser's new
// seat link (and the host's, for the offerer) is stored like any other, so the link opens it.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, seats } from "../api/client";
import type { GameRatings, RematchInfo } from "../api/types";

const POLL_MS = 2000;

/** A rating as shown: one decimal, in the page's digits (a new player's may be below zero). */
export function rating(ordinal: number): string {
  return num(ordinal, 1);
}

export function RatingChanges({ id, token }: { id: string; token: string | null }): JSX.Element | null {
  const [found, setFound] = useState<GameRatings | null>(null);
  useEffect(() => {
    api.ratings(id, token).then(setFound).catch(() => setFound(null));
  }, [id, token]);
  if (!found || found.changes.length === 0) return null;
  return (
    <div class="panel ratings" data-testid="rating-changes">
      <div class="panel-title">{t("end.ratings")}</div>
      <ul>
        {found.changes.map((c) => (
          <li key={c.seat} data-testid={`rating-${c.seat}`}>
            {c.player_id ? <a href={`#/player/${encodeURIComponent(c.player_id)}`}><bdi>{c.name}</bdi></a> : <bdi>{c.name}</bdi>}
            {" "}
            {t("end.rating_change", { before: rating(c.before.ordinal), after: rating(c.after.ordinal),
              delta: signedNum(c.after.ordinal - c.before.ordinal, 1) })}
            {c.after.provisional && <span class="badge">{t("end.provisional")}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Store this browser's links to the rematch (seat and host), once it is made. */
async function keep(info: RematchInfo): Promise<void> {
  const game = info.new_game_id;
  if (!game) return;
  if (info.host_token && !seats.hostToken(game)) seats.setHostToken(game, info.host_token);
  if (info.token && seats.get(game)?.token !== info.token) {
    const st = await api.state(game, info.token);
    if (st.seat === null) return;
    const named = await api.game(game);
    seats.set(game, { seat: st.seat, token: info.token, name: named.seats[st.seat]?.name ?? "" });
  }
}

export function Rematch({ id, token, mySeat, names }: {
  id: string; token: string | null; mySeat: number | null; names: (string | null)[];
}): JSX.Element | null {
  const [info, setInfo] = useState<RematchInfo | null>(null);
  const [empty, setEmpty] = useState<"open" | "bot">("open");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [kept, setKept] = useState<string | null>(null); // the rematch whose links are stored
  const took = (found: RematchInfo) => {
    setInfo(found);
    const done = () => setKept(found.new_game_id);
    if (found.new_game_id) keep(found).then(done, done);
  };
  useEffect(() => {
    let live = true;
    const read = () => api.rematch(id, token).then((f) => live && took(f)).catch(() => {});
    read();
    const timer = setInterval(() => {
      if (!info?.new_game_id) read();
    }, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [id, token, info?.new_game_id]);
  if (!info || (mySeat === null && info.offered_by === null)) return null;
  const send = async (what: () => Promise<RematchInfo>) => {
    setBusy(true);
    setError(null);
    try {
      took(await what());
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const name = (seat: number) => isolate(names[seat] ?? String(seat + 1));
  const mine = mySeat !== null ? info.answers[String(mySeat)] : undefined;
  return (
    <div class="panel rematch" data-testid="rematch">
      <div class="panel-title">{t("rematch.title")}</div>
      {error && <div class="message bad">{error}</div>}
      {info.offered_by === null && mySeat !== null && (
        <div>
          <label>
            {t("rematch.empty_seats")}{" "}
            <select value={empty} data-testid="rematch-empty" onChange={(e) => setEmpty((e.target as HTMLSelectElement).value as "open" | "bot")}>
              <option value="open">{t("rematch.empty_open")}</option>
              <option value="bot">{t("rematch.empty_bot")}</option>
            </select>
          </label>
          <button type="button" disabled={busy} data-testid="rematch-offer"
            onClick={() => send(() => api.offerRematch(id, token, empty))}>{t("rematch.offer")}</button>
        </div>
      )}
      {info.offered_by !== null && (
        <>
          <p data-testid="rematch-offered">{t("rematch.offered", { name: name(info.offered_by) })}</p>
          <ul>
            {Object.entries(info.answers).map(([seat, yes]) => (
              <li key={seat}>{name(Number(seat))}: {yes ? t("rematch.accepted") : t("rematch.declined")}</li>
            ))}
            {info.waiting_for.map((seat) => <li key={seat}>{name(seat)}: {t("rematch.waiting")}</li>)}
          </ul>
        </>
      )}
      {!info.new_game_id && info.offered_by !== null && mySeat !== null && mine === undefined && (
        <div>
          <button type="button" disabled={busy} data-testid="rematch-accept"
            onClick={() => send(() => api.answerRematch(id, token, true))}>{t("rematch.accept")}</button>{" "}
          <button type="button" disabled={busy} data-testid="rematch-decline"
            onClick={() => send(() => api.answerRematch(id, token, false))}>{t("rematch.decline")}</button>
        </div>
      )}
      {!info.new_game_id && info.offered_by === mySeat && info.waiting_for.length > 0 && (
        <button type="button" disabled={busy} data-testid="rematch-start"
          onClick={() => send(() => api.startRematch(id, token))}>{t("rematch.start_now")}</button>
      )}
      {info.new_game_id && kept === info.new_game_id && (
        <a class="button" href={`#/game/${encodeURIComponent(info.new_game_id)}`} data-testid="rematch-go">
          {mine ? t("rematch.go") : t("rematch.watch")}</a>
      )}
    </div>
  );
}
