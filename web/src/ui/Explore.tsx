// The analysis board in a finished game's replay: from the position on screen, the player
// tries other moves (or the bot's reply) and sees the board, each player's chance of winning
// and what the bot would play there. The server computes it (POST /explore) and stores
// nothing: the line lives here only, and "Back to the game" drops it.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "../api/client";
import type { Action, Explored } from "../api/types";
import { actionOnlyWords, type Names } from "../logic/events";
import { isolate, t } from "../i18n";
import { PLAYER_COLOURS, PLAYER_NAMES } from "../logic/names";
import "./analysis.css";

/** A move of the line and the seat that made it. */
export interface Tried { action: Action; seat: number }

export interface ExploreState {
  frame: number;
  line: Tried[];
  found: Explored | null;
  error: string | null;
  play: (a: Action) => void;
  undo: () => void;
}

/** The line tried from the position after `frame` moves of game `id` (null: not exploring;
 * another frame starts a new line), and where it leads. */
export function useExplore(id: string, frame: number | null): ExploreState {
  const [tried, setTried] = useState<{ frame: number | null; line: Tried[] }>({ frame: null, line: [] });
  const [found, setFound] = useState<Explored | null>(null);
  const [error, setError] = useState<string | null>(null);
  const line = tried.frame === frame ? tried.line : [];
  useEffect(() => {
    setFound(null);
    setError(null);
    if (frame === null) return;
    let live = true;
    api.explore(id, frame, line.map((m) => m.action))
      .then((f) => live && setFound(f))
      .catch((e) => live && setError(e.message));
    return () => { live = false; };
  }, [id, frame, tried]);
  const play = (a: Action) => {
    if (found === null || found.to_move === null || frame === null) return;
    setTried({ frame, line: [...line, { action: a, seat: found.to_move }] });
  };
  const undo = () => setTried({ frame, line: line.slice(0, -1) });
  return { frame: frame ?? 0, line, found, error, play, undo };
}

export function ExplorePanel({ state, names, onBack }: { state: ExploreState; names?: Names; onBack: () => void }): JSX.Element {
  const who = (s: number) => isolate(names?.[s] ?? PLAYER_NAMES[s]); // by name, as the log names them
  const { frame, line, found, error, play, undo } = state;
  const [choice, setChoice] = useState(0);
  useEffect(() => setChoice(0), [found]);
  const seat = found?.to_move ?? null;
  return (
    <div class="panel explore" data-testid="explore" data-line={line.length} data-ready={String(found !== null)}>
      <div class="panel-title">{t("explore.title")}</div>
      <p>{t("explore.from", { n: frame })}</p>
      {line.length > 0 && <ol data-testid="explore-line">{line.map((m, i) => <li key={i}>{actionOnlyWords(m.action, m.seat, names)}</li>)}</ol>}
      {error && <div class="message bad">{error}</div>}
      {!found && !error && <p>{t("explore.thinking")}</p>}
      {found && (
        <>
          <div class="win-legend" data-testid="explore-win">{found.win.map((p, s) => (
            <span key={s} style={{ color: PLAYER_COLOURS[s] }}>{t("analysis.win", { who: who(s), p })}</span>
          ))}</div>
          {seat === null ? <p>{t("explore.over")}</p> : (
            <>
              {found.reply && (
                <p data-testid="explore-reply">{t("explore.reply", { action: actionOnlyWords(found.reply, seat, names) })}{" "}
                  <button type="button" data-testid="explore-play-reply" onClick={() => play(found.reply!)}>{t("explore.play_reply")}</button>
                </p>
              )}
              <label>{t("explore.moves")}{" "}
                <select data-testid="explore-moves" value={String(choice)}
                  onChange={(e) => setChoice(Number((e.target as HTMLSelectElement).value))}>
                  {found.moves.map((m, i) => <option key={i} value={String(i)}>{actionOnlyWords(m, seat, names)}</option>)}
                </select>
              </label>{" "}
              <button type="button" data-testid="explore-play" onClick={() => found.moves[choice] && play(found.moves[choice])}>{t("explore.play")}</button>
            </>
          )}
        </>
      )}
      <p>
        <button type="button" data-testid="explore-undo" onClick={undo} disabled={line.length === 0}>{t("explore.undo")}</button>{" "}
        <button type="button" data-testid="explore-back" onClick={onBack}>{t("explore.back")}</button>
      </p>
    </div>
  );
}
