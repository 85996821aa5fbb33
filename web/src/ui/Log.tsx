// The game log in words (from the effects stored with each action), and the end-of-game summary.
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { LogEntry, MoveEvent, View } from "../api/types";
import { IndustryIcon } from "../board/industries";
import { num, signedNum, t } from "../i18n";
import { entryItems, type LogItem, type Names, type RankRow, type ScoreRow } from "../logic/events";
import { money, PLAYER_COLOURS, PLAYER_NAMES } from "../logic/names";
import { Chip } from "./Panels";

function ScoreTable({ era, rows, names }: { era: string; rows: ScoreRow[]; names?: Names }): JSX.Element {
  return (
    <div class="log-table" data-testid="era-scores">
      <div class="log-event-title">{t("log.scores_title", { era })}</div>
      <table>
        <thead><tr><th>{t("log.col_player")}</th><th>{t("log.col_links")}</th><th>{t("log.col_industries")}</th><th>{t("log.col_era_vp")}</th><th>{t("log.col_vp")}</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.seat} title={r.detail.join("\n")}>
              <td class="who"><Chip seat={r.seat} /> <bdi>{names?.[r.seat] ?? PLAYER_NAMES[r.seat]}</bdi></td>
              <td>{t("log.count_vp", { n: r.links, vp: r.linkVp })}</td>
              <td>{t("log.count_vp", { n: r.tiles, vp: r.tileVp })}</td>
              <td>{num(r.linkVp + r.tileVp)}</td>
              <td><b>{num(r.vp)}</b></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RankTable({ rows, names }: { rows: RankRow[]; names?: Names }): JSX.Element {
  return (
    <div class="log-table" data-testid="ranking">
      <div class="log-event-title">{t("log.ranking")}</div>
      <table>
        <thead><tr><th>#</th><th>{t("log.col_player")}</th><th>{t("log.col_vp")}</th><th>{t("log.col_income")}</th><th>{t("log.col_money")}</th><th /></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.seat}>
              <td>{num(r.rank)}</td>
              <td class="who"><Chip seat={r.seat} /> <bdi>{names?.[r.seat] ?? PLAYER_NAMES[r.seat]}</bdi></td>
              <td><b>{num(r.vp)}</b></td>
              <td>{num(r.income)}</td>
              <td>{money(r.money)}</td>
              <td class="muted">{r.tieBreak}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A between-turn event (income, turn order, scoring, removals, deal, ranking). */
function EventItem({ item, names }: { item: Exclude<LogItem, { kind: "move" }>; names?: Names }): JSX.Element {
  if (item.kind === "scores") return <ScoreTable era={item.era} rows={item.rows} names={names} />;
  if (item.kind === "ranking") return <RankTable rows={item.rows} names={names} />;
  return (
    <div class="log-event" data-testid={`event-${item.kind}`}>
      {item.text}
      {item.lines && <ul>{item.lines.map((l, i) => <li key={i}>{l}</li>)}</ul>}
    </div>
  );
}

/** The industries a move built, developed or sold (their pictures lead its line). */
function moveIndustries(entry: LogEntry): string[] {
  const m = entry.effects?.find((e) => e.type === "move") as MoveEvent | undefined;
  if (!m) return [];
  const all = [...(m.placed ? [m.placed.industry] : []), ...m.developed.map((d) => d.industry), ...m.sales.map((s) => s.industry)];
  return [...new Set(all)];
}

/** One log entry: its move, then the events it caused; players by name (`names`, by seat). */
export function EntryBody({ entry, names }: { entry: LogEntry; names?: Names }): JSX.Element {
  const items = entryItems(entry, names);
  const icons = moveIndustries(entry);
  return (
    <>
      {items.map((it, i) => it.kind === "move"
        ? <span key={i} class="log-move">{icons.map((ind) => <IndustryIcon key={ind} industry={ind} size={15} hidden />)}{icons.length ? " " : ""}{it.text}</span>
        : <EventItem key={i} item={it} names={names} />)}
    </>
  );
}

export function GameLogPanel({ entries, names, current, onJump }: {
  entries: LogEntry[];
  /** the seats' names (seatName), as the rest of the page shows them */
  names?: Names;
  current?: number;
  onJump?: (n: number) => void;
}): JSX.Element {
  const rows = entries.map((e, i) => ({ e, n: i + 1 }));
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const el = list.current?.querySelector("li.current") as HTMLElement | null;
    if (el && list.current) list.current.scrollTop = el.offsetTop - list.current.offsetTop - 60;
  }, [current]);
  return (
    <div class="log panel" data-testid="log">
      <div class="panel-title">{t("log.title")}</div>
      {rows.length === 0 && <div class="muted">{t("log.empty")}</div>}
      <ol reversed={!onJump} ref={list}>
        {(onJump ? rows : [...rows].reverse()).map(({ e, n }) => (
          <li key={e.seq} class={`${current === n ? "current" : ""}${onJump ? " jump" : ""}`} data-n={n}
            style={{ borderInlineStartColor: PLAYER_COLOURS[e.seat] }} onClick={onJump ? () => onJump(n) : undefined}>
            <span class="n">{num(n)}.</span> <EntryBody entry={e} names={names} />
          </li>
        ))}
      </ol>
    </div>
  );
}

const score = (n: number | undefined): string => (n === undefined ? "–" : num(n));

/** Each seat's VP paid for income it could not pay, once both eras are scored: what the eras
 * scored less the VP it has (no other VP is ever lost: RULES.md, income). */
export function vpLost(view: Pick<View, "players" | "era_scores">): number[] {
  const scored = (seat: number) => view.era_scores.reduce((sum, era) => sum + (era[seat]?.links ?? 0) + (era[seat]?.industries ?? 0), 0);
  return view.players.map((p) => (view.era_scores.length === 2 ? scored(p.seat) - p.vp : 0));
}

/** `standIns`: why a bot played a seat at the end, if one did (a resigned or timed-out seat
 * is marked under its name). The table fits a laptop's side column and a phone with every
 * column; where a language's words do not, it scrolls sideways in its own box, the player's
 * name held in view, and the page never does. */
export function Summary({ view, names, standIns }: {
  view: View; names: (string | null)[]; standIns?: (string | null | undefined)[];
}): JSX.Element {
  const order = view.winner_order ?? view.players.map((p) => p.seat);
  const era = (e: number, seat: number) => view.era_scores[e]?.[seat];
  const lost = vpLost(view);
  const anyLost = lost.some((l) => l > 0);  // a column only when someone lost some
  return (
    <div class="summary panel" data-testid="summary">
      <div class="panel-title">{t("summary.title")}</div>
      {/* a region of its own that takes the focus: a keyboard scrolls it where it overflows */}
      <div class="summary-scroll" data-testid="summary-scroll" role="region" tabIndex={0} aria-label={t("summary.title")}>
        <table>
          <thead>
            <tr>
              <th>#</th>
              <th class="who">{t("log.col_player")}</th>
              <th title={t("summary.canal_links_title")}>{t("summary.canal_links")}</th>
              <th title={t("summary.canal_industries_title")}>{t("summary.canal_industries")}</th>
              <th title={t("summary.rail_links_title")}>{t("summary.rail_links")}</th>
              <th title={t("summary.rail_industries_title")}>{t("summary.rail_industries")}</th>
              {anyLost && <th title={t("summary.lost_title")}>{t("summary.lost")}</th>}
              <th>{t("log.col_vp")}</th>
              <th>{t("log.col_money")}</th>
            </tr>
          </thead>
          <tbody>
            {order.map((seat, i) => {
              const p = view.players[seat];
              return (
                <tr key={seat}>
                  <td>{num(view.ranks ? view.ranks[seat] : i + 1)}</td>
                  <td class="who"><Chip seat={seat} /> <bdi>{names[seat] ?? PLAYER_NAMES[seat]}</bdi>
                    {(standIns?.[seat] === "resigned" || standIns?.[seat] === "timeout") &&
                      <span class="muted stand-in" data-testid={`summary-${standIns[seat]}`}>({standIns[seat] === "resigned" ? t("summary.resigned") : t("summary.timeout")})</span>}</td>
                  <td>{score(era(0, seat)?.links)}</td>
                  <td>{score(era(0, seat)?.industries)}</td>
                  <td>{score(era(1, seat)?.links)}</td>
                  <td>{score(era(1, seat)?.industries)}</td>
                  {anyLost && <td data-testid={`summary-lost-${seat}`}>{lost[seat] > 0 ? signedNum(-lost[seat]) : "–"}</td>}
                  <td><b>{num(p.vp)}</b></td>
                  <td>{money(p.money)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
