// The analysis of a finished game in its replay: asked for with one button, then per move the
// bot's preferred move and how much better it judged it, the biggest mistakes (click to
// jump there) and each player's estimated chance of winning over the game. The server judges;
// this only draws what it says: a move it did not judge (`judged` false, `loss` null) is never
// shown as one it agrees with, nor ranked among the mistakes.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "../api/client";
import type { Analysis, MoveJudged } from "../api/types";
import { actionOnlyWords } from "../logic/events";
import { t } from "../i18n";
import { PLAYER_COLOURS, PLAYER_NAMES } from "../logic/names";
import "./analysis.css";

const W = 260;
const H = 90;

export function AnalysisPanel({ id, n, onJump }: { id: string; n: number; onJump: (n: number) => void }): JSX.Element {
  const [analysis, setAnalysis] = useState<Analysis | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api.analysis(id).then(setAnalysis).catch((e) => setError(e.message));
  }, [id]);
  useEffect(() => {
    if (analysis?.status !== "running") return;
    const timer = setTimeout(() => api.analysis(id).then(setAnalysis).catch((e) => setError(e.message)), 1000);
    return () => clearTimeout(timer);
  }, [analysis]);

  const start = () => api.analyse(id).then(setAnalysis).catch((e) => setError(e.message));
  if (error) return <div class="panel analysis"><div class="message bad">{error}</div></div>;
  if (!analysis) return <div class="panel analysis">{t("analysis.loading")}</div>;
  if (analysis.status !== "done") {
    return (
      <div class="panel analysis" data-testid="analysis">
        <div class="panel-title">{t("analysis.title")}</div>
        {analysis.status === "running"
          ? <p data-testid="analysis-progress">{t("analysis.progress", { done: analysis.done, total: analysis.total })}</p>
          : <button type="button" data-testid="analyse" onClick={start}>
            {analysis.status === "failed" ? t("analysis.failed") : t("analysis.start")}</button>}
      </div>
    );
  }
  const moves = analysis.moves;
  const here = n > 0 ? moves[n - 1] : null;
  const lossOf = (m: MoveJudged): number => (m.judged === false ? 0 : m.loss ?? 0);
  const worst = moves.filter((m) => lossOf(m) > 0).sort((a, b) => lossOf(b) - lossOf(a)).slice(0, 5);
  const seats = moves[0]?.win.length ?? 0;
  const x = (i: number) => (moves.length <= 1 ? 0 : (i / (moves.length - 1)) * W);
  const y = (p: number) => H - p * H;
  return (
    <div class="panel analysis" data-testid="analysis">
      <div class="panel-title">{t("analysis.title")}</div>
      {here && here.judged !== false && here.loss !== null && (
        <p data-testid="analysis-move" data-positions={here.positions ?? undefined}>
          {here.loss > 0
            ? t("analysis.preferred", { n: here.seq, action: actionOnlyWords(here.preferred, here.seat), loss: here.loss })
            : t("analysis.agrees", { n: here.seq })}
        </p>
      )}
      <svg class="win-chart" viewBox={`0 0 ${W} ${H}`} data-testid="win-chart" role="img"
        aria-label={t("analysis.chart")}>
        {Array.from({ length: seats }, (_, s) => (
          <polyline key={s} fill="none" stroke={PLAYER_COLOURS[s]} stroke-width="1.5"
            points={moves.map((m, i) => `${x(i).toFixed(1)},${y(m.win[s]).toFixed(1)}`).join(" ")} />
        ))}
        {n > 0 && <line x1={x(n - 1)} x2={x(n - 1)} y1={0} y2={H} class="now" />}
      </svg>
      <div class="win-legend">{Array.from({ length: seats }, (_, s) => (
        <span key={s} style={{ color: PLAYER_COLOURS[s] }}>{here ? t("analysis.win", { who: PLAYER_NAMES[s], p: here.win[s] }) : PLAYER_NAMES[s]}</span>
      ))}</div>
      {worst.length > 0 && <div class="mistakes">{t("analysis.mistakes")}
        <ol data-testid="mistakes">{worst.map((m) => (
          <li key={m.seq}><button type="button" class="link" onClick={() => onJump(m.seq)}>
            {t("analysis.mistake", { n: m.seq, who: PLAYER_NAMES[m.seat], loss: lossOf(m) })}</button></li>
        ))}</ol>
      </div>}
    </div>
  );
}
