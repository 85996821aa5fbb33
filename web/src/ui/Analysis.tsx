// The analysis of a finished game in its replay: asked for with one button, then per move the
// bot's preferred move, how much better it judged it and the win chance it would have given,
// how sure it is (the positions searched), the biggest mistakes (click to jump there) and each
// player's estimated chance of winning over the game. The server judges; this only draws what
// it says (and `betterMove`, which the replay marks on the board): a move it did not judge (`judged` false, `loss` null) says so in words and by a grey
// tick under the chart, and is never shown as one it agrees with, nor ranked among the mistakes.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, seats as held } from "../api/client";
import type { Action, Analysis, MoveJudged } from "../api/types";
import { actionOnlyWords, type Names } from "../logic/events";
import { touched } from "../board/touched";
import { isolate, signedNum, t } from "../i18n";
import { PLAYER_COLOURS, PLAYER_NAMES } from "../logic/names";
import "./analysis.css";

const W = 260;
const H = 90;

/** Did the search value the move made? (Not: the budget ran out first; `loss` is then null.) */
export function isJudged(m: MoveJudged): m is MoveJudged & { loss: number } {
  return m.judged !== false && m.loss !== null;
}

/** The words for one move's judgement, a sentence a line: what the bot preferred and the win
 * chance it would have given, and how sure it is; an unjudged move says only that. */
export function judgementWords(m: MoveJudged, names?: Names): string[] {
  const who = (s: number) => isolate(names?.[s] ?? PLAYER_NAMES[s]); // by name, as the log names them
  if (!isJudged(m)) return [t("analysis.unjudged", { n: m.seq })];
  const lines = [m.loss > 0
    ? t("analysis.preferred", { n: m.seq, action: actionOnlyWords(m.preferred, m.seat, names), loss: m.loss })
    : t("analysis.agrees", { n: m.seq })];
  if (m.loss > 0 && m.win_preferred) {
    lines.push(t("analysis.preferred_win", { who: who(m.seat), p: m.win_preferred[m.seat], made: m.win[m.seat] }));
  }
  if (m.positions !== null && m.positions !== undefined) lines.push(t("analysis.positions", { count: m.positions }));
  return lines;
}

/** A mistake in words: the mover's win chance with the preferred move and after the move made
 * (the search's `loss` is in its own points: VP lead, win chance and position together, which
 * a player took for VP of the game); the points only where no win chance came with it. */
export function mistakeWords(m: MoveJudged & { loss: number }, names?: Names): string {
  const who = isolate(names?.[m.seat] ?? PLAYER_NAMES[m.seat]);
  return m.win_preferred
    ? t("analysis.mistake_win", { n: m.seq, who, p: m.win_preferred[m.seat], made: m.win[m.seat] })
    : t("analysis.mistake", { n: m.seq, who, loss: signedNum(-m.loss, 1) });
}

/** The `count` judged moves that lost the most, worst first (an unjudged move is never one). */
export function biggestMistakes(moves: MoveJudged[], count = 5): (MoveJudged & { loss: number })[] {
  return moves.filter(isJudged).filter((m) => m.loss > 0).sort((a, b) => b.loss - a.loss).slice(0, count);
}

/** The analysis of game `id` once it is finished (`enabled`: only a finished game has one):
 * fetched once, polled while it runs; `start` asks for it. */
export function useAnalysis(id: string, enabled: boolean): AnalysisState {
  const [analysis, setAnalysis] = useState<Analysis | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (enabled) api.analysis(id).then(setAnalysis).catch((e) => setError(e.message));
  }, [id, enabled]);
  useEffect(() => {
    if (analysis?.status !== "running") return;
    const timer = setTimeout(() => api.analysis(id).then(setAnalysis).catch((e) => setError(e.message)), 1000);
    return () => clearTimeout(timer);
  }, [analysis]);
  // only a seat or the host of the game may start it (anyone reads it once done)
  const token = held.get(id)?.token ?? held.hostToken(id);
  const start = () => {
    if (token) api.analyse(id, token).then(setAnalysis).catch((e) => setError(e.message));
  };
  return { analysis, error, start, token };
}

export interface AnalysisState {
  analysis: Analysis | null;
  error: string | null;
  start: () => void;
  token: string | null; // a seat's or the host's: only they may start it
}

/** The better move the analysis found for move `n` (1-based), if it judged that move and
 * found one better: what the replay marks on the board. */
export function betterMove(analysis: Analysis | null, n: number): Action | null {
  const here = analysis?.status === "done" && n > 0 ? analysis.moves[n - 1] : undefined;
  return here && isJudged(here) && here.loss > 0 ? here.preferred : null;
}

/** Does the move touch the board (a build, a sale, links), so the replay can mark it? */
function onBoard(a: Action | null): boolean {
  const marks = touched(a ?? undefined);
  return (marks.slots?.size ?? 0) + (marks.tiles?.size ?? 0) + (marks.links?.size ?? 0) > 0;
}

export function AnalysisPanel({ state, names, n, onJump }: { state: AnalysisState; names?: Names; n: number; onJump: (n: number) => void }): JSX.Element {
  const who = (s: number) => isolate(names?.[s] ?? PLAYER_NAMES[s]);
  const { analysis, error, start, token } = state;
  if (error) return <div class="panel analysis"><div class="message bad">{error}</div></div>;
  if (!analysis) return <div class="panel analysis">{t("analysis.loading")}</div>;
  if (analysis.status !== "done") {
    return (
      <div class="panel analysis" data-testid="analysis">
        <div class="panel-title">{t("analysis.title")}</div>
        {analysis.status === "running"
          ? <p data-testid="analysis-progress">{t("analysis.progress", { done: analysis.done, total: analysis.total })}</p>
          : token
            ? <button type="button" data-testid="analyse" onClick={start}>
              {analysis.status === "failed" ? t("analysis.failed") : t("analysis.start")}</button>
            : <p data-testid="analysis-players-only">{t("analysis.players_only")}</p>}
      </div>
    );
  }
  const moves = analysis.moves;
  const here = n > 0 ? moves[n - 1] : null;
  const worst = biggestMistakes(moves);
  const seats = moves[0]?.win.length ?? 0;
  const x = (i: number) => (moves.length <= 1 ? 0 : (i / (moves.length - 1)) * W);
  const y = (p: number) => H - p * H;
  return (
    <div class="panel analysis" data-testid="analysis">
      <div class="panel-title">{t("analysis.title")}</div>
      {here && (
        <div data-testid="analysis-move" data-judged={String(isJudged(here))}
          data-positions={here.positions ?? undefined}>
          {judgementWords(here, names).map((line, i) => <p key={i} style={{ margin: "0 0 2px" }}>{line}</p>)}
          {onBoard(betterMove(analysis, n)) && <p class="better-note" data-testid="better-note">{t("analysis.better_on_board")}</p>}
        </div>
      )}
      <svg class="win-chart" viewBox={`0 0 ${W} ${H}`} data-testid="win-chart" role="img"
        aria-label={t("analysis.chart")}>
        {Array.from({ length: seats }, (_, s) => (
          <polyline key={s} fill="none" stroke={PLAYER_COLOURS[s]} stroke-width="1.5"
            points={moves.map((m, i) => `${x(i).toFixed(1)},${y(m.win[s]).toFixed(1)}`).join(" ")} />
        ))}
        {moves.map((m, i) => !isJudged(m) && (
          <line key={`u${m.seq}`} x1={x(i)} x2={x(i)} y1={H - 8} y2={H} stroke="#888" stroke-width="1.5"
            data-testid="unjudged"><title>{t("analysis.unjudged", { n: m.seq })}</title></line>
        ))}
        {n > 0 && <line x1={x(n - 1)} x2={x(n - 1)} y1={0} y2={H} class="now" />}
      </svg>
      <div class="win-legend">{Array.from({ length: seats }, (_, s) => (
        <span key={s} style={{ color: PLAYER_COLOURS[s] }}>{here ? t("analysis.win", { who: who(s), p: here.win[s] }) : who(s)}</span>
      ))}</div>
      {worst.length > 0 && <div class="mistakes">{t("analysis.mistakes")}
        <ol data-testid="mistakes">{worst.map((m) => (
          <li key={m.seq}><button type="button" class="link" onClick={() => onJump(m.seq)}>
            {mistakeWords(m, names)}</button></li>
        ))}</ol>
      </div>}
    </div>
  );
}
