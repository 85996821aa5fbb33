// A game: the lobby while seats are free, then the board with panels, acting and the log.
import type { JSX } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, ApiError, type ConnStatus, GameSocket, newActionId, type SeatToken, seats } from "../api/client";
import type { Action, GameInfo, LegalEntry, LogEntry, Quote, StateMessage, View } from "../api/types";
import { Board, type Targets } from "../board/Board";
import { PanZoom } from "../board/PanZoom";
import { cardOptions, type Choice, EMPTY, autoChoose, parseSale, pickOptions, salesByTile } from "../logic/choose";
import { PLAYER_NAMES } from "../logic/names";
import { ActionPanel } from "./ActionPanel";
import { Lobby } from "./Lobby";
import { GameLogPanel, Summary } from "./Log";
import { Hand, Markets, Players, TurnBar } from "./Panels";

export function seatNames(info: GameInfo | null, n: number): (string | null)[] {
  return Array.from({ length: n }, (_, i) => info?.seats[i]?.name ?? null);
}

/** What an action touched on the board (to mark the last move). */
export function touched(action: LogEntry["action"] | undefined): Targets {
  const t: Targets = { slots: new Set(), links: new Set(), tiles: new Set() };
  const a = action as unknown as Action | undefined;
  if (!a) return t;
  if (a.kind === "build") t.slots!.add(`${a.location}:${a.slot}`);
  if (a.kind === "network") for (const l of a.links) t.links!.add(l);
  if (a.kind === "sell") for (const s of a.sales) t.tiles!.add(`${s.location}:${s.slot}`);
  return t;
}

/** Board targets for the current choice. */
export function boardTargets(entries: LegalEntry[], c: Choice, pendingTile: string | null): { targets: Targets; selected: Targets } {
  const targets: Targets = { slots: new Set(), tiles: new Set(), links: new Set(), merchants: new Set() };
  const selected: Targets = { slots: new Set(), tiles: new Set(), links: new Set(), merchants: new Set() };
  if (!c.kind) return { targets, selected };
  const opts = pickOptions(entries, c);
  for (const p of c.picks) {
    if (p.startsWith("slot:")) selected.slots!.add(p.slice(5));
    if (p.startsWith("link:")) selected.links!.add(p.slice(5));
    if (p.startsWith("sale:")) {
      const s = parseSale(p);
      selected.tiles!.add(`${s.location}:${s.slot}`);
      selected.merchants!.add(s.merchant);
    }
  }
  if (pendingTile) selected.tiles!.add(pendingTile);
  for (const o of opts) {
    if (o.startsWith("slot:")) targets.slots!.add(o.slice(5));
    if (o.startsWith("link:")) targets.links!.add(o.slice(5));
  }
  if (c.kind === "sell") {
    const byTile = salesByTile(opts);
    if (pendingTile) for (const p of byTile.get(pendingTile) ?? []) targets.merchants!.add(parseSale(p).merchant);
    else for (const k of byTile.keys()) targets.tiles!.add(k);
  }
  return { targets, selected };
}

export function GameScreen({ id }: { id: string }): JSX.Element {
  const [info, setInfo] = useState<GameInfo | null>(null);
  const [st, setSt] = useState<StateMessage | null>(null);
  const [conn, setConn] = useState<ConnStatus>("connecting");
  const [mine, setMine] = useState<SeatToken | null>(() => seats.get(id));
  const [log, setLog] = useState<LogEntry[]>([]);
  // legal actions tagged with the version they were fetched for: never offer a stale list
  const [legalAt, setLegalAt] = useState<{ version: number; entries: LegalEntry[] }>({ version: -1, entries: [] });
  const [choice, setChoiceRaw] = useState<Choice>(EMPTY);
  const [pendingTile, setPendingTile] = useState<string | null>(null);
  const [message, setMessage] = useState<{ text: string; bad: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [notFound, setNotFound] = useState(false);
  const [stamp, setStamp] = useState(0); // every state message (seats change without a new version)
  const frames = useRef(new Map<number, View>());
  const quotes = useRef(new Map<number, Quote>());
  const socket = useRef<GameSocket | null>(null);
  const token = mine?.token ?? null;

  useEffect(() => {
    const s = new GameSocket(id, token, {
      onState: (m) => {
        if (m.view) frames.current.set(m.view.action_count, m.view);
        setSt(m);
        setStamp((k) => k + 1);
      },
      onStatus: setConn,
      onMessage: (m) => {
        if (m.type === "error") {
          if (m.code === "not_found") setNotFound(true);
          else setMessage({ text: m.message, bad: true });
        }
      },
    });
    socket.current = s;
    // a hook for the browser tests: `__brass.drop(ms)` cuts the connection for a while,
    // `__brass.resume()` ends that while now
    (window as unknown as { __brass?: unknown }).__brass = {
      drop: (ms: number) => s.drop(ms),
      resume: () => s.resume(),
    };
    return () => s.close();
  }, [id, token]);

  const version = st?.version ?? -1;
  const legal = legalAt.version === version ? legalAt.entries : [];
  const view = st?.view ?? null;
  const mySeat = st?.seat ?? null;
  const myTurn = view !== null && mySeat !== null && view.current_seat === mySeat && !view.is_over;

  useEffect(() => {
    if (st) api.game(id).then(setInfo).catch(() => {});
  }, [id, stamp]);

  useEffect(() => {
    if (!st) return;
    let live = true;
    if (st.status !== "waiting")
      api
        .log(id)
        .then(async (l) => {
          if (!live) return;
          setLog(l.actions);
          // views around the recent moves made before this page connected, so the log can
          // name tile levels and prices
          const total = l.actions.length;
          const missing = [];
          for (let k = Math.max(0, total - 24); k < total; k++) if (!frames.current.has(k)) missing.push(k);
          for (const k of missing) {
            if (!live) return;
            try {
              frames.current.set(k, (await api.replay(id, k, null)).view);
            } catch {
              return;
            }
          }
          if (live && missing.length) setLog([...l.actions]);
        })
        .catch(() => {});
    setChoiceRaw(EMPTY);
    setPendingTile(null);
    if (myTurn && token) {
      const at = st.version;
      api
        .legal(id, token)
        .then((entries) => live && setLegalAt({ version: at, entries }))
        .catch((e) => live && setMessage({ text: e.message, bad: true }));
    }
    return () => {
      live = false;
    };
  }, [id, version, st?.status, myTurn, token]);

  const setChoice = (c: Choice) => {
    setMessage(null);
    setChoiceRaw(c);
  };
  const names = seatNames(info, view?.num_players ?? info?.players ?? 0);
  useEffect(() => {
    document.title = myTurn ? "▶ Your turn — Brass" : info ? `${info.name} — Brass` : "Brass: Birmingham";
  }, [myTurn, info?.name]);
  const { targets, selected } = useMemo(() => boardTargets(legal, choice, pendingTile), [legal, choice, pendingTile]);

  if (notFound) return <div class="page"><h2>No such game</h2><a href="#/">Back to the games</a></div>;
  if (!st) return <div class="page">Connecting…</div>;
  if (st.status === "waiting" || !view) {
    return <Lobby id={id} info={info} mine={mine} conn={conn}
      onJoined={(s) => { seats.set(id, s); setMine(s); }} />;
  }

  async function confirm(e: LegalEntry) {
    if (!token || !view) return;
    setBusy(true);
    const n = view.action_count + 1;
    try {
      await api.act(id, token, e.action, version, newActionId());
      quotes.current.set(n, e.quote);
      setMessage(null);
    } catch (err) {
      const text = err instanceof ApiError ? err.message : String(err);
      setMessage({ text: `Refused: ${text}`, bad: true });
      if (err instanceof ApiError && err.code === "stale_version") socket.current?.sync();
    } finally {
      setBusy(false);
    }
  }
  async function undo() {
    if (!token) return;
    setBusy(true);
    try {
      await api.undo(id, token, version);
      if (view) quotes.current.delete(view.action_count);
      setMessage({ text: "Your last action was taken back.", bad: false });
    } catch (err) {
      setMessage({ text: `Cannot undo: ${err instanceof Error ? err.message : err}`, bad: true });
    } finally {
      setBusy(false);
    }
  }

  const onSlot = (location: string, slot: number) => {
    const k = `${location}:${slot}`;
    if (choice.kind === "build") setChoice(autoChoose(legal, { ...choice, picks: [`slot:${k}`] }));
    else if (choice.kind === "sell") setPendingTile(pendingTile === k ? null : k);
  };
  const onLink = (lid: string) => setChoice(autoChoose(legal, { ...choice, picks: [...choice.picks, `link:${lid}`] }));
  const onMerchant = (loc: string) => {
    if (!pendingTile) return;
    const opts = [...pickOptions(legal, choice)].filter((p) => p.startsWith(`sale:${pendingTile}:${loc}:`));
    if (opts.length === 1) {
      setChoice(autoChoose(legal, { ...choice, picks: [...choice.picks, opts[0]] }));
      setPendingTile(null);
    } else if (opts.length > 1) {
      // several develop choices (Gloucester): offered as buttons in the action panel
      setMessage({ text: "Choose what Gloucester's beer develops, in the action panel.", bad: false });
    }
  };
  const me = mySeat !== null ? view.players[mySeat] : null;
  const hand = me?.hand ?? null;
  const playable = new Set<string>();
  if (myTurn) {
    if (choice.kind === "scout") {
      for (const p of pickOptions(legal, choice)) if (p.startsWith("card:")) playable.add(p.slice(5));
    } else if (choice.kind) for (const c of cardOptions(legal, choice)) playable.add(c);
  }
  const onCard = (card: string) => {
    if (choice.kind === "scout") {
      const pick = `card:${card}`;
      const i = choice.picks.lastIndexOf(pick);
      const chosenCount = choice.picks.filter((p) => p === pick).length;
      const inHand = hand?.filter((h) => h === card).length ?? 0;
      // a chosen copy clicked again (no copy left to add): take it back
      if (i >= 0 && (chosenCount >= inHand || !playable.has(card)))
        setChoice({ ...choice, picks: choice.picks.filter((_, k) => k !== i) });
      else setChoice({ ...choice, picks: [...choice.picks, pick] });
    }
    else setChoice(autoChoose(legal, { ...choice, card: choice.card === card ? null : card }));
  };
  // undo reaches back only within this turn: the player has already acted in it
  const actedThisTurn = view.actions_left === 1 && !(view.era === "canal" && view.round === 1);
  const lastMine = actedThisTurn && log.length > 0 && log[log.length - 1].seat === mySeat;

  return (
    <div class="game" data-testid="game" data-version={version} data-actions={view.action_count} data-current={view.current_seat ?? ""}>
      <header class="game-head">
        <a href="#/" class="home-link">Brass</a>
        <span class="game-name">{info?.name}</span>
        <TurnBar view={view} names={names} />
        {conn !== "open" && <span class="conn" data-testid="conn">{conn === "reconnecting" ? "Reconnecting…" : conn}</span>}
        {mySeat === null && <span class="badge" data-testid="spectating">Spectating</span>}
        {view.is_over && <a class="badge" href={`#/replay/${id}`}>Replay</a>}
      </header>
      <main class="game-body">
        <section class="board-wrap">
          <PanZoom>
            <Board view={view} targets={myTurn ? targets : undefined} selected={myTurn ? selected : undefined}
              recent={touched(log.length === view.action_count ? log[log.length - 1]?.action : undefined)}
              onSlot={onSlot} onLink={onLink} onMerchant={onMerchant} />
          </PanZoom>
        </section>
        <aside class="side">
          {message && <div class={`message${message.bad ? " bad" : ""}`} data-testid="message">{message.text}</div>}
          {view.is_over && <Summary view={view} names={names} />}
          {myTurn && (
            <ActionPanel entries={legal} choice={choice} setChoice={setChoice} pendingTile={pendingTile}
              setPendingTile={setPendingTile} seat={mySeat!} onConfirm={confirm} busy={busy} />
          )}
          {mySeat !== null && !myTurn && !view.is_over && view.current_seat !== null && (
            <div class="panel waiting" data-testid="waiting">
              Waiting for {names[view.current_seat] ?? PLAYER_NAMES[view.current_seat]} ({PLAYER_NAMES[view.current_seat]})…
            </div>
          )}
          {myTurn && lastMine && (
            <button type="button" class="undo" data-testid="undo" disabled={busy} onClick={undo}>Undo my last action</button>
          )}
          {hand && <Hand cards={hand} playable={playable} selected={choice.kind === "scout" ? choice.picks.map((p) => p.slice(5)) : choice.card ? [choice.card] : []} onCard={myTurn ? onCard : undefined} />}
          <Players view={view} names={names} />
          <Markets view={view} />
          <GameLogPanel entries={log} frames={frames.current} quotes={quotes.current} />
        </aside>
      </main>
    </div>
  );
}
