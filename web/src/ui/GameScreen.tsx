import { isolate, t } from "../i18n";
// A game: the lobby while seats are free, then the board with panels, acting and the log. The
// state comes from useGameState, the legal moves from useLegal, the choice from useChoosing;
// this file only lays them out and sends the chosen move.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError, type Host, newActionId, type SeatToken, seats } from "../api/client";
import type { GameInfo, LegalEntry } from "../api/types";
import { Board } from "../board/Board";
import { PanZoom } from "../board/PanZoom";
import { touched } from "../board/touched";
import { PLAYER_NAMES, seatName } from "../logic/names";
import { ActionPanel } from "./ActionPanel";
import { Clocks, StandInNotice } from "./Clocks";
import { Nudge } from "./Nudge";
import { Lobby } from "./Lobby";
import { GameLogPanel, Summary } from "./Log";
import { Hand, Markets, Players, ScoreStrip, TurnBar } from "./Panels";
import type { Info } from "../board/Board";
import { ChatPanel, useChat } from "./Chat";
import { DetailsCard } from "./Details";
import { RatingChanges, Rematch } from "./EndScreen";
import { usePreview } from "./Preview";
import { targetList } from "./TargetPicker";
import { ScoreGraph, series, WinnerLine } from "./History";
import { Guide, HelpButton } from "./Help";
import { MuteSwitch, orderMarks, SinceLastTurn, sinceMyLastTurn, useTurnAlert } from "./TurnAlert";
import { useChoiceState, useChoosing } from "./useChoosing";
import { chosen } from "../logic/choose";
import { SeatLinks } from "./SeatLink";
import { useGameState } from "./useGameState";
import { reducedMotion, useMoveAnimation } from "./useMoveAnimation";
import { scroller } from "./inView";
import { useLegal } from "./useLegal";
import { Icon } from "./icons";

/** The phone layout of styles.css (board above the panels, the action panel a bottom sheet). */
const PHONE = "(max-width: 800px)";

export function seatNames(info: GameInfo | null, n: number): (string | null)[] {
  return Array.from({ length: n }, (_, i) => (info?.seats[i] ? seatName(info.seats[i]) : null));
}

/** `passing`: a refusal for want of the database (`unavailable`), old news at the next state. */
type Message = { text: string; bad: boolean; passing?: boolean } | null;

/** Said in words when the server no longer knows this browser's seat token: the link was
 * renewed elsewhere, or the host removed the seat; watching is offered. */
/** Why this browser no longer holds its seat: renewed elsewhere (a game under way), or emptied
 * in the lobby (by the host, or the host's own seat by themself). */
function SeatLost({ removed, byHost, onWatch }: { removed: boolean; byHost: boolean; onWatch: () => void }): JSX.Element {
  return (
    <div class="message bad seat-lost" role="alert" data-testid="seat-lost">
      <p>{!removed ? t("seat.renewed") : byHost ? t("seat.left") : t("seat.removed")}</p>
      <button type="button" data-testid="watch" onClick={onWatch}>{t("seat.watch")}</button>
    </div>
  );
}

/** `mine`: the seat this browser holds (App reads it again whenever one is stored); `host`: how
 * it hosts the game (its host link, or its player's cookie), null if it does not. */
export function GameScreen({ id, mine: held, host, onMover }: {
  id: string; mine: SeatToken | null; host: Host | null;
  /** told the seat to move at each version (a shared screen passes itself to its player) */
  onMover?: (seat: number | null) => void;
}): JSX.Element {
  const [watching, setWatching] = useState<string | null>(null); // the lost token, when watching
  const mine = held && held.token !== watching ? held : null;
  const token = mine?.token ?? null;
  const { st, conn, info, log, logReady, notFound, error, seatLost, socket } = useGameState(id, token);
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (error && !seatLost) setMessage({ text: error.text, bad: true, passing: error.code === "unavailable" });
  }, [error]);
  // the game answers again (a move, a greeting): "the database cannot be reached" is gone
  useEffect(() => setMessage((m) => (m?.passing ? null : m)), [st]);
  // seats are emptied only in the lobby, and a lobby may be called off or expire since
  const lobby = st?.status === "waiting" || st?.status === "cancelled" || st?.status === "expired";
  const lost = seatLost && mine ? <SeatLost removed={lobby} byHost={host !== null}
    onWatch={() => setWatching(mine.token)} /> : null;

  const version = st?.version ?? -1;
  const view = st?.view ?? null;
  useEffect(() => {
    if (view && !view.is_over && st?.status === "running") onMover?.(view.current_seat);
  }, [version]);
  const mySeat = st?.seat ?? null;
  // the server's admin ended it (admin page): over like a finished game, though the rules
  // still name a seat to move; nothing may say whose turn it is
  const called = st?.status === "cancelled";
  const myTurn = view !== null && mySeat !== null && view.current_seat === mySeat && !view.is_over && !called;
  const hand = mySeat !== null ? view?.players[mySeat]?.hand ?? null : null;
  const say = (text: string | null) => setMessage(text === null ? null : { text, bad: false });
  // the choice and the moves grow together: a partial Sell asks for its extensions
  const choiceState = useChoiceState(version);
  const legal = useLegal(myTurn ? st : null, socket, choiceState.choice);
  const choosing = useChoosing(choiceState, legal, hand, say);
  const entry = myTurn && choiceState.choice.kind ? chosen(legal, choiceState.choice) : null;
  const preview = usePreview(socket, entry?.action ?? null, version);
  const [card, setCard] = useState<{ what: Info; pinned: boolean } | null>(null);
  const [town, setTown] = useState<string | null>(null);
  useEffect(() => setTown(null), [version, choiceState.choice.kind]);
  // On a phone the header takes a third of the screen and the bottom sheet half of it: choosing
  // an action brings the board up to the top, so that the places to pick show above the sheet.
  const choosingKind = myTurn && choiceState.choice.kind !== null;
  useEffect(() => {
    if (choosingKind && matchMedia(PHONE).matches)
      document.querySelector(".game .board-wrap")?.scrollIntoView({ block: "start" });
  }, [choosingKind]);
  const onInfo = (what: Info | null, pinned: boolean) =>
    setCard((old) => (what ? (pinned || !old?.pinned ? { what, pinned } : old) : pinned || !old?.pinned ? null : old));
  // Escape goes back one step: the town open in the picker, the last pick, the card, the kind.
  // The listener reads the state of the last render (a ref set while rendering): an effect
  // registered per render runs after the paint, and a key pressed before it would undo a step
  // of an older choice (the card, say, instead of the pick just made).
  const { choice: ch, setChoice: setCh, pendingTile, setPendingTile } = choosing;
  const shown = useRef({ card, town, pendingTile, ch, setCh, setPendingTile });
  shown.current = { card, town, pendingTile, ch, setCh, setPendingTile };
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      const { card, town, pendingTile, ch, setCh, setPendingTile } = shown.current;
      if (card) setCard(null);
      else if (town) setTown(null);
      else if (pendingTile) setPendingTile(null);
      else if (ch.picks.length) setCh({ ...ch, picks: ch.picks.slice(0, -1) });
      else if (ch.card) setCh({ ...ch, card: null });
      else if (ch.kind) setCh({ kind: null, card: null, picks: [] });
      else return;
      e.preventDefault();
    };
    addEventListener("keydown", on);
    return () => removeEventListener("keydown", on);
  }, []);

  const names = seatNames(info, view?.num_players ?? info?.players ?? 0);
  useMoveAnimation(log, logReady);
  useTurnAlert(myTurn, info?.name ?? "");
  const chat = useChat(id, socket);
  // the end screen's graph starts from the first frame (everyone's starting money and VP)
  const over = view?.is_over ?? false;
  const [start, setStart] = useState<{ vp: number; money: number }[] | null>(null);
  useEffect(() => {
    if (over && !start) api.replay(id, 0, null).then((f) => setStart(f.view.players)).catch(() => {});
  }, [over, id]);
  // the game ending while the page is open (the last move, a resignation): its result, at the
  // side column's top, may be scrolled out of view (the player was at the clocks or the chat,
  // or the phone's page at the board): brought into view and focused, once. A game already
  // over when the page opens starts there anyway.
  const result = useRef<HTMLDivElement>(null);
  const wasOver = useRef<boolean | null>(null);
  useEffect(() => {
    if (!view) return;
    if (wasOver.current === false && over && result.current) {
      // its own scrolling box only (a laptop's side column, else a phone's page): scrollIntoView
      // would scroll the page too, and the header with it
      const el = result.current;
      const box = scroller(el);
      const top = el.getBoundingClientRect().top - (box ? box.getBoundingClientRect().top : 0) - 8;
      (box ?? window).scrollBy({ top, behavior: reducedMotion() ? "auto" : "smooth" });
      el.focus({ preventScroll: true });
    }
    wasOver.current = over;
  }, [over, view !== null]);
  const [sinceHidden, setSinceHidden] = useState(-1); // the version whose summary was closed
  const since = myTurn && sinceHidden !== version ? sinceMyLastTurn(log, mySeat) : [];
  useEffect(() => {
    document.title = myTurn ? t("game.title_turn", { app: t("app.short") })
      : info ? t("game.title", { name: info.name, app: t("app.short") }) : t("app.title");
  }); // every render: a language change renames the tab too

  if (notFound) return <div class="page"><h2>{t("game.not_found")}</h2><a href="#/">{t("game.back")}</a></div>;
  if (!st) {
    if (lost) return <div class="page">{lost}</div>;
    // the server answers, its database does not: said so, while the socket retries
    return conn === "unreachable" ? <div class="page" role="status" data-testid="conn">{t("conn.unreachable")}</div>
      : <div class="page">{t("game.connecting")}</div>;
  }
  if (st.status === "waiting" || !view) {
    return <>
      <SeatLinks id={id} mine={lost ? null : mine} host={host} />
      {lost}
      <Lobby id={id} info={info} mine={lost ? null : mine} host={host} conn={conn} onJoined={(s) => (mine && info?.shared_screen ? seats.addShared(id, s) : seats.set(id, s))} />
    </>;
  }

  async function send(what: () => Promise<unknown>, done: Message, refused: string) {
    setBusy(true);
    choiceState.sending(version); // the version this brings clears the choice without a word
    try {
      await what();
      setMessage(done);
    } catch (err) {
      choiceState.sending(null);
      const text = err instanceof ApiError ? err.message : String(err);
      setMessage({ text: `${refused}: ${text}`, bad: true, passing: err instanceof ApiError && err.code === "unavailable" });
      if (err instanceof ApiError && err.code === "stale_version") socket?.sync();
    } finally {
      setBusy(false);
    }
  }
  const confirm = (e: LegalEntry) =>
    token !== null && send(() => api.act(id, token, e.action, version, newActionId()), null, t("game.refused"));
  const undo = () =>
    token !== null && send(() => api.undo(id, token, version), { text: t("game.undone"), bad: false }, t("game.cannot_undo"));

  const { choice } = choosing;
  const undoButton = myTurn && st.undoable && (
    <button type="button" class="undo" data-testid="undo" disabled={busy} onClick={undo}>{t("game.undo")}</button>
  );
  const handPanel = hand && <Hand cards={hand} title={t("panel.your_hand")} playable={myTurn ? choosing.playable : new Set()}
    selected={choice.kind === "scout" ? choice.picks.map((p) => p.slice(5)) : choice.card ? [choice.card] : []}
    onCard={myTurn ? choosing.onCard : undefined} />;
  const standIn = !view.is_over && !called && <StandInNotice id={id} st={st} mine={mine} names={names} />;
  const last = log.length === view.action_count ? log[log.length - 1]?.action : undefined;

  return (
    <div class="game" data-testid="game" data-version={version} data-actions={view.action_count} data-current={called ? "" : view.current_seat ?? ""}>
      <header class="game-head">
        <a href="#/" class="home-link">{t("app.short")}</a>
        <span class="game-name"><bdi>{info?.name}</bdi></span>
        <TurnBar view={view} names={names} ended={called ? t("panel.called_off") : null} />
        {conn !== "open" && <span class="conn" data-testid="conn">{t(`conn.${conn}`)}</span>}
        {mySeat === null && <span class="badge" data-testid="spectating">{t("game.spectating")}</span>}
        {(view.is_over || called) && <a class="badge" href={`#/replay/${id}`}>{t("home.replay")}</a>}
        {mySeat !== null && <MuteSwitch />}
        <HelpButton />
        <SeatLinks id={id} mine={lost ? null : mine} host={host} />
        <ScoreStrip view={view} names={names} />
      </header>
      <main class="game-body">
        <section class="board-wrap">
          <PanZoom>
            <Board view={view} targets={myTurn ? choosing.targets : undefined} selected={myTurn ? choosing.selected : undefined}
              recent={touched(last)} onSlot={choosing.onSlot} onLink={choosing.onLink} onMerchant={choosing.onMerchant}
              onInfo={onInfo} onTown={myTurn ? setTown : undefined} order={since.length ? orderMarks(since) : undefined} />
          </PanZoom>
          {card && <DetailsCard view={view} info={card.what} names={names} pinned={card.pinned} onClose={() => setCard(null)} />}
        </section>
        <aside class="side" tabIndex={0} aria-label={t("game.panels")}>
          {lost}
          {message && <div class={`message${message.bad ? " bad" : ""}`} data-testid="message">{message.text}</div>}
          {choiceState.dropped && (
            <div class="message dropped" data-testid="choice-dropped">
              <span role="status">{t("game.choice_dropped")}</span>
              <button type="button" class="close" aria-label={t("game.choice_dropped_close")} data-testid="choice-dropped-close"
                onClick={choiceState.dismiss}><Icon name="close" /></button>
            </div>
          )}
          {called && <div class="message bad" role="status" data-testid="game-ended">{t("game.ended_by_admin")}</div>}
          {view.is_over && (
            // brought into view (and focused) once, when the game ends while the page is open
            <div class="game-result" data-testid="game-result" tabIndex={-1} ref={result} aria-label={t("panel.game_over")}>
              <WinnerLine view={view} names={names} />
              <Summary view={view} names={names} standIns={st.seats.map((s) => s.stand_in)} />
              <RatingChanges id={id} token={token} />
              <Rematch id={id} token={token} mySeat={mySeat} names={names} />
            </div>
          )}
          {view.is_over && start && log.length === view.action_count && (() => {
            const points = series(start, log);
            return points && <ScoreGraph points={points} log={log} names={names} />;
          })()}
          {/* what the player acts with first, in view without scrolling: the action panel, Undo, the
              hand; on a phone together in the bottom sheet (the hand under the actions, reached
              by scrolling the sheet), on a laptop in the side column as they were */}
          {!myTurn && standIn}
          {myTurn && <div class="turn-sheet" data-testid="turn-sheet">
            {standIn}
            <ActionPanel entries={legal} choice={choice} setChoice={choosing.setChoice} pendingTile={choosing.pendingTile}
              setPendingTile={choosing.setPendingTile} seat={mySeat!} onConfirm={confirm} busy={busy}
              preview={preview} player={view.players[mySeat!]} view={view} town={town} setTown={setTown}
              targets={targetList(view, choosing.targets, choosing)}
              hand={hand ?? []} playable={choosing.playable} onCard={choosing.onCard} />
            {undoButton}
            {handPanel}
          </div>}
          {mySeat !== null && !myTurn && !view.is_over && !called && view.current_seat !== null && (
            <div class="panel waiting" data-testid="waiting">
              {t("game.waiting", { name: isolate(names[view.current_seat] ?? PLAYER_NAMES[view.current_seat]), colour: PLAYER_NAMES[view.current_seat] })}{" "}
              <Nudge id={id} token={mine?.token ?? null} mover={view.current_seat} turn={st.clock.turn_started} />
            </div>
          )}
          {!myTurn && handPanel}
          {since.length > 0 && <SinceLastTurn entries={since} names={names} onClose={() => setSinceHidden(version)} />}
          {mySeat !== null && !view.is_over && !called && <Guide />}
          <Clocks id={id} st={st} mine={mine} names={names} onSend={() => choiceState.sending(version)} />
          <ChatPanel messages={chat} socket={socket} spectator={mySeat === null} closed={view.is_over || called}
            host={host ? { id, host, seatNames: names, bots: names.map((_, s) => !!info?.seats[s]?.bot) } : null} />
          <Players view={view} names={names} ended={called} />
          <Markets view={view} />
          <GameLogPanel entries={log} names={names} />
        </aside>
      </main>
    </div>
  );
}
