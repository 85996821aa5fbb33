import { isolate, t } from "../i18n";
// Side panels: turn bar, markets, players, the hand.
import type { JSX } from "preact";
import type { View } from "../api/types";
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
} from "../logic/names";

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

export function Chip({ seat }: { seat: number }): JSX.Element {
  return (
    <span class="chip" style={{ background: PLAYER_COLOURS[seat], color: PLAYER_TEXT[seat] }} title={PLAYER_NAMES[seat]}>
      {PLAYER_NAMES[seat][0]}
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
              <span title={`Income track space ${p.income_space}`}>income {p.income_level >= 0 ? "+" : ""}{p.income_level}</span>
              <span title="Victory points" data-testid="vp">{p.vp} VP</span>
              <span title="Spent this round">spent {money(p.spent)}</span>
              <span title="Link tiles left">{p.links_left} links</span>
              <span title="Cards in hand">{p.hand_size} cards</span>
            </div>
            <div class="discard">
              Discard: {p.discard_top ? cardName(p.discard_top) : "—"}
            </div>
            <div class="mat" title="Next tile of each industry on the player mat">
              {INDUSTRIES.map((ind) => {
                const levels = p.mat[ind] ?? [];
                return (
                  <span key={ind} class="mat-tile" title={`${INDUSTRY_NAME[ind]}: ${levels.length} left`}
                    style={{ background: INDUSTRY_COLOUR[ind], color: ind === "coal" ? "#fff" : "#111" }}>
                    {INDUSTRY_LETTER[ind]} {levels.length ? roman(levels[0]) : "—"}
                  </span>
                );
              })}
            </div>
          </div>
        );
      })}
    </div>
  );
}

export function Hand({ cards, playable, selected, onCard }: {
  cards: string[];
  playable?: Set<string>;
  selected?: string[];
  onCard?: (card: string) => void;
}): JSX.Element {
  return (
    <div class="hand panel" data-testid="hand">
      <div class="panel-title">Your hand</div>
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
