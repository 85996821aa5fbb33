import { isolate, t } from "../i18n";
// Side panels: turn bar, markets, players, the hand.
import type { JSX } from "preact";
import type { PlayerView, View } from "../api/types";
import {
  cardName,
  INDUSTRIES,
  INDUSTRY_COLOUR,
  INDUSTRY_LETTER,
  INDUSTRY_NAME,
  money,
  PLAYER_COLOURS,
  PLAYER_NAMES,
  PLAYER_TEXT,
  roman,
  tileSpec,
} from "../logic/names";
import { PLAYER_SYMBOL } from "../board/symbols";

export function TurnBar({ view, names }: { view: View; names: (string | null)[] }): JSX.Element {
  return (
    <div class="turnbar" data-testid="turnbar">
      <span class="era">{t("panel.era", { era: view.era })}</span>
      <span>{t("panel.round", { round: view.round })}</span>
      {view.is_over ? (
        <span class="over">{t("panel.game_over")}</span>
      ) : (
        view.current_seat !== null && (
          <span class="to-move">
            <Chip seat={view.current_seat} />{" "}
            {t("panel.to_move", { who: isolate(names[view.current_seat] ?? PLAYER_NAMES[view.current_seat]), n: view.actions_left })}
          </span>
        )
      )}
      <span class="order" title={t("panel.order_title")}>
        {t("panel.order")} {view.turn_order.map((s) => <Chip key={s} seat={s} />)}
      </span>
      <span title={t("panel.deck_title")}>{t("panel.deck", { n: view.deck_size })}</span>
    </div>
  );
}

/** Every seat's VP and income level in one line (the header): visible to everyone at once. */
export function ScoreStrip({ view, names }: { view: View; names: (string | null)[] }): JSX.Element {
  return (
    <div class="score-strip" data-testid="score-strip">
      {view.players.map((p) => (
        <span key={p.seat} class="score" data-testid={`score-${p.seat}`}>
          <Chip seat={p.seat} /> {names[p.seat] ?? PLAYER_NAMES[p.seat]}: <b>{p.vp} VP</b> · income {p.income_level >= 0 ? "+" : ""}{p.income_level} · {money(p.money)}
        </span>
      ))}
    </div>
  );
}

export function Chip({ seat }: { seat: number }): JSX.Element {
  return (
    <span class="chip" style={{ background: PLAYER_COLOURS[seat], color: PLAYER_TEXT[seat] }} title={PLAYER_NAMES[seat]}
      role="img" aria-label={PLAYER_NAMES[seat]}>
      {PLAYER_SYMBOL[seat]}
    </span>
  );
}

/** A market's cubes and the price of the next one, as the server's view gives them. */
function Market({ label, cubes, colour, price }: { label: string; cubes: number; colour: string; price: number }) {
  return (
    <div class="market" data-testid={`market-${label.toLowerCase()}`}>
      <div class="market-head">
        {t("panel.market", { resource: label.toLowerCase(), n: cubes, price: money(price) })}
      </div>
      <div class="market-row">
        {Array.from({ length: cubes }, (_, i) => (
          <span key={i} class="cube-space full" style={{ background: colour }} />
        ))}
      </div>
    </div>
  );
}

export function Markets({ view }: { view: View }): JSX.Element {
  return (
    <div class="markets panel">
      <Market label="Coal" cubes={view.coal_market} colour="#222" price={view.coal_price} />
      <Market label="Iron" cubes={view.iron_market} colour="#e67e22" price={view.iron_price} />
      <div class="wilds">
        {t("panel.wilds", { location: view.wild_location_left, industry: view.wild_industry_left })}
      </div>
    </div>
  );
}

export function Players({ view, names, viewerLabel = "you" }: { view: View; names: (string | null)[]; viewerLabel?: string }): JSX.Element {
  const order = [...view.turn_order, ...view.players.map((p) => p.seat).filter((s) => !view.turn_order.includes(s))];
  return (
    <div class="players">
      {order.map((seat) => {
        const p = view.players[seat];
        const current = view.current_seat === seat;
        return (
          <div key={seat} class={`player panel${current ? " current" : ""}${view.viewer === seat ? " me" : ""}`}
            data-testid={`player-${seat}`} style={{ borderInlineStartColor: PLAYER_COLOURS[seat] }}>
            <div class="player-head">
              <Chip seat={seat} /> <b>{names[seat] ?? PLAYER_NAMES[seat]}</b>
              {view.viewer === seat && <span class="you"> ({viewerLabel})</span>}
              {current && <span class="moving"> {t("panel.moving")}</span>}
            </div>
            <div class="stats">
              <span title="Money" data-testid="money">{money(p.money)}</span>
              <span title={`Income track space ${p.income_space}`} data-testid="income">income {p.income_level >= 0 ? "+" : ""}{p.income_level} (space {p.income_space})</span>
              <span title="Victory points" data-testid="vp">{p.vp} VP</span>
              <span title="Spent this round">spent {money(p.spent)}</span>
              <span title="Link tiles left">{p.links_left} links</span>
              <span title="Cards in hand">{p.hand_size} cards</span>
            </div>
            <div class="discard">
              Discard: {p.discard_top ? cardName(p.discard_top) : "—"}
            </div>
            <Mat mat={p.mat} seat={seat} />
          </div>
        );
      })}
    </div>
  );
}

/** A player's mat: per industry, the next tile with its cost, what it needs, what it is worth,
 * and how many tiles are left (from the view's mat and the printed tile data). */
export function Mat({ mat, seat }: { mat: PlayerView["mat"]; seat: number }): JSX.Element {
  return (
    <table class="mat" data-testid={`mat-${seat}`}>
      <caption class="sr-only">{PLAYER_NAMES[seat]}'s mat: the next tile of each industry</caption>
      <thead>
        <tr><th scope="col">Next tile</th><th scope="col">Cost</th><th scope="col">Needs</th><th scope="col">VP</th><th scope="col">Income</th><th scope="col">Left</th></tr>
      </thead>
      <tbody>
        {INDUSTRIES.map((ind) => {
          const levels = mat[ind] ?? [];
          const spec = levels.length ? tileSpec(ind, levels[0]) : undefined;
          const needs = spec ? [spec.coal ? `${spec.coal} coal` : "", spec.iron ? `${spec.iron} iron` : "", spec.beer ? `sell: ${spec.beer} beer` : ""].filter(Boolean).join(", ") : "";
          return (
            <tr key={ind} data-industry-row={ind}>
              <th scope="row">
                <span class="mat-tile" style={{ background: INDUSTRY_COLOUR[ind], color: ind === "coal" ? "#fff" : "#111" }}>
                  {INDUSTRY_LETTER[ind]} {levels.length ? roman(levels[0]) : "—"}
                </span>
                <span class="sr-only">{INDUSTRY_NAME[ind]}</span>
              </th>
              <td>{spec ? money(spec.cost) : ""}</td>
              <td>{needs || (spec ? "—" : "")}</td>
              <td>{spec?.vp ?? ""}</td>
              <td>{spec ? `+${spec.income}` : ""}</td>
              <td>{levels.length}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function Hand({ cards, playable, selected, onCard, title = "Your hand" }: {
  cards: string[];
  /** whose hand it is */
  title?: string;
  playable?: Set<string>;
  selected?: string[];
  onCard?: (card: string) => void;
}): JSX.Element {
  return (
    <div class="hand panel" data-testid="hand">
      <div class="panel-title" data-testid="hand-title">{title}</div>
      <div class="cards">
        {cards.length === 0 && <span class="muted">{t("panel.no_cards")}</span>}
        {cards.map((c, i) => {
          const can = playable?.has(c);
          // with duplicates in hand, mark only as many copies as were chosen
          const sel = (selected ?? []).filter((x) => x === c).length > cards.slice(0, i).filter((x) => x === c).length;
          const kind = c.split(":")[0];
          return (
            <button key={`${c}-${i}`} type="button" class={`card ${kind}${can ? " playable" : ""}${sel ? " selected" : ""}`}
              data-card={c} disabled={!(can || sel) || !onCard} onClick={() => onCard?.(c)}>
              {cardName(c)}
            </button>
          );
        })}
      </div>
    </div>
  );
}
