// Replays: the same screen with step back/forward, jump to a move, play/pause and, once the game
// is over, whose hand to show. The moves in words come from the log's effects; each frame (the
// board after move n) from GET /replay/{n}.
import type { JSX } from "preact";
import { info, isolate, t } from "../i18n";
import { useEffect, useRef, useState } from "preact/hooks";
import { animateEntry } from "./useMoveAnimation";
import { api } from "../api/client";
import type { GameLog, View } from "../api/types";
import { Board } from "../board/Board";
import { PanZoom } from "../board/PanZoom";
import { PLAYER_NAMES, playerName, seatName } from "../logic/names";
import { touched } from "../board/touched";
import { entryLine } from "../logic/events";
import { AnalysisPanel, betterMove, useAnalysis } from "./Analysis";
import { ExplorePanel, useExplore } from "./Explore";
import { GameLogPanel, Summary } from "./Log";
import { Hand, Markets, Players, TurnBar } from "./Panels";
import { ChatPanel, useChat } from "./Chat";
import { MoveList, ScoreGraph, series, WinnerLine } from "./History";

export function ReplayScreen({ id }: { id: string }): JSX.Element {
  const [log, setLog] = useState<GameLog | null>(null);
  const [n, setN] = useState(0);
  const [seat, setSeat] = useState<number | null>(null);
  const [shown, setShown] = useState<{ n: number; view: View } | null>(null);
  const view = shown?.view ?? null;
  const [playing, setPlaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cache = useRef(new Map<string, View>());
  const chat = useChat(id, null);
  useEffect(() => {
    document.title = log ? t("game.title", { name: t("replay.title", { name: log.name }), app: t("app.short") }) : t("app.title");
  });

  useEffect(() => {
    api.log(id).then(setLog).catch((e) => setError(e.message));
  }, [id]);
  const total = log?.actions.length ?? 0;
  const finished = log?.status === "finished";
  const analysis = useAnalysis(id, finished);
  const [exploreFrom, setExploreFrom] = useState<number | null>(null);
  const explore = useExplore(id, finished ? exploreFrom : null);
  useEffect(() => setExploreFrom(null), [n]); // a step in the game leaves the analysis board

  async function frame(k: number, s: number | null): Promise<View> {
    const key = `${s}:${k}`;
    const hit = cache.current.get(key);
    if (hit) return hit;
    const f = await api.replay(id, k, s);
    cache.current.set(key, f.view);
    return f.view;
  }

  useEffect(() => {
    if (!log) return;
    let live = true;
    frame(n, seat)
      .then((v) => live && setShown({ n, view: v }))
      .catch((e) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [log, n, seat]);

  // a step forward (by a button, a key or play) animates the move it adds
  const before = useRef<number | null>(null);
  useEffect(() => {
    const k = shown?.n;
    if (k === undefined || !log) return;
    const was = before.current;
    before.current = k;
    if (was === null || k !== was + 1) return;
    const playing = animateEntry(log.actions[k - 1]);
    return () => playing?.skip();
  }, [shown?.n]);

  useEffect(() => {
    if (!playing) return;
    if (n >= total) {
      setPlaying(false);
      return;
    }
    if (shown?.n !== n) return; // the next step once this frame is on screen
    const t = setTimeout(() => setN((k) => Math.min(total, k + 1)), 700);
    return () => clearTimeout(t);
  }, [playing, n, total, shown?.n]);

  useEffect(() => {
    // keys: ← → step (back is the arrow toward the start of a line: → in a right-to-left page),
    // Home/End jump, space plays or pauses
    const on = (e: KeyboardEvent) => {
      if ((e.target as HTMLElement)?.tagName === "INPUT" || (e.target as HTMLElement)?.tagName === "SELECT") return;
      const back = info().dir === "rtl" ? "ArrowRight" : "ArrowLeft";
      const forward = back === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";
      if (e.key === back) setN((k) => Math.max(0, k - 1));
      else if (e.key === forward) setN((k) => Math.min(total, k + 1));
      else if (e.key === "Home") setN(0);
      else if (e.key === "End") setN(total);
      else if (e.key === " ") setPlaying((p) => !p);
      else return;
      e.preventDefault();
    };
    addEventListener("keydown", on);
    return () => removeEventListener("keydown", on);
  }, [total]);

  if (error) return <div class="page"><div class="message bad">{error}</div><a href="#/">{t("replay.back")}</a></div>;
  if (!log || !view) return <div class="page">{t("replay.loading")}</div>;
  const names = log.seats.map(seatName);
  const hand = seat !== null ? view.players[seat]?.hand : null;
  const last = n > 0 ? log.actions[n - 1] : null;
  const start = cache.current.get(`null:0`) ?? (seat !== null ? cache.current.get(`${seat}:0`) : undefined);
  const points = start ? series(start.players, log.actions) : null;
  const better = finished && exploreFrom === null ? betterMove(analysis.analysis, n) : null;
  const exploring = exploreFrom !== null && explore.found ? explore.found.view : null;

  return (
    <div class="game replay" data-testid="replay" data-n={n} data-frame={shown?.n}
      data-exploring={exploreFrom === null ? undefined : String(exploreFrom)}>
      <header class="game-head">
        <a href="#/" class="home-link">{t("app.short")}</a>
        <span class="game-name">{t("replay.title", { name: isolate(log.name) })}</span>
        <TurnBar view={exploring ?? view} names={names} />
      </header>
      <div class="replay-controls panel" data-testid="replay-controls">
        <button type="button" class="arrow" onClick={() => setN(0)} disabled={n === 0} title={t("replay.start")}>|◀</button>
        <button type="button" class="arrow" data-testid="step-back" onClick={() => setN(Math.max(0, n - 1))} disabled={n === 0} title={t("replay.step_back")}>◀</button>
        <button type="button" data-testid="play" onClick={() => setPlaying(!playing)} title={playing ? t("replay.pause") : t("replay.play")}>{playing ? t("replay.pause") : t("replay.play")}</button>
        <button type="button" class="arrow" data-testid="step-forward" onClick={() => setN(Math.min(total, n + 1))} disabled={n >= total} title={t("replay.step_forward")}>▶</button>
        <button type="button" class="arrow" onClick={() => setN(total)} disabled={n >= total} title={t("replay.end")}>▶|</button>
        <input type="range" min={0} max={total} value={n} data-testid="scrub" aria-label={t("replay.scrub")}
          onInput={(e) => setN(Number((e.target as HTMLInputElement).value))} />
        <span data-testid="position">{t("replay.position", { n, total })}</span>
        {finished && (
          <label>{t("replay.hand")}{" "}
            <select value={seat === null ? "" : String(seat)} data-testid="hand-seat"
              onChange={(e) => { const v = (e.target as HTMLSelectElement).value; setSeat(v === "" ? null : Number(v)); }}>
              <option value="">{t("replay.no_hand")}</option>
              {log.seats.map((s) => <option key={s.seat} value={s.seat}>{playerName(s.seat, names)}</option>)}
            </select>
          </label>
        )}
        {finished && exploreFrom === null && (
          <button type="button" data-testid="explore-start" onClick={() => { setPlaying(false); setExploreFrom(n); }}>
            {t("explore.start")}</button>
        )}
        {last && <div class="last-move" data-testid="last-move">{entryLine(last, names)}</div>}
      </div>
      <main class="game-body">
        <section class="board-wrap">
          <PanZoom>{exploring
            ? <Board view={exploring} recent={touched(explore.line[explore.line.length - 1]?.action)} />
            : <Board view={view} recent={touched(last?.action)} better={better ? touched(better) : undefined} />}</PanZoom>
        </section>
        <aside class="side" tabIndex={0} aria-label={t("game.panels")}>
          {finished && exploreFrom !== null && <ExplorePanel state={explore} names={names} onBack={() => setExploreFrom(null)} />}
          {view.is_over && <WinnerLine view={view} names={names} />}
          {view.is_over && <Summary view={view} names={names} />}
          {points && <ScoreGraph points={points} log={log.actions} names={names} upTo={n} />}
          {hand && seat !== null && <Hand cards={hand} title={t("replay.hand_of", { name: isolate(names[seat] ?? PLAYER_NAMES[seat]), colour: PLAYER_NAMES[seat] })} />}
          <Players view={exploring ?? view} names={names} viewerLabel={t("replay.hand_shown")} />
          <Markets view={exploring ?? view} />
          <ChatPanel messages={chat} socket={null} spectator upTo={n} />
          <MoveList log={log.actions} names={names} current={n} onJump={setN} />
          {finished && <AnalysisPanel state={analysis} names={names} n={n} onJump={setN} />}
          <GameLogPanel entries={log.actions} names={names} current={n} onJump={setN} />
        </aside>
      </main>
    </div>
  );
}
