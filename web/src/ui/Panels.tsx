import { isolate, num, signedNum, t } from "../i18n";
// Side panels: turn bar, markets, players, the hand.
import type { JSX } from "preact";
import type { PlayerView, View } from "../api/types";
import {
  cardName,
  INDUSTRIES,
  INDUSTRY_COLOUR,
  INDUSTRY_NAME,
  money,
  PLAYER_COLOURS,
  PLAYER_NAMES,
  PLAYER_TEXT,
  roman,
  tileSpec,
} from "../logic/names";
import { IndustryIcon } from "../board/industries";
import { PLAYER_SYMBOL } from "../board/symbols";
import { amountWords } from "../logic/words";

/** `ended`: the server ended the game before the rules did (its admin called it off): said
 * in place of whose turn it is. */
export function TurnBar({ view, names, ended }: { view: View; names: (string | null)[]; ended?: string | null }): JSX.Element {
  return (
    <div class="turnbar" data-testid="turnbar">
      <span class="era">{t("panel.era", { era: view.era })}</span>
      <span>{t("panel.round", { round: view.round })}</span>
      {ended ? (
        <span class="over" data-testid="turn-ended">{ended}</span>
      ) : view.is_over ? (
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
    // focusable: on a phone it is one line that scrolls sideways, by keyboard too
    <div class="score-strip" data-testid="score-strip" tabIndex={0}>
      {view.players.map((p) => (
        <span key={p.seat} class="score" data-testid={`score-${p.seat}`}>
          <Chip seat={p.seat} /> <bdi class="score-name">{names[p.seat] ?? PLAYER_NAMES[p.seat]}</bdi>: <b>{t("panel.vp", { n: p.vp })}</b> · {t("panel.income", { level: signedNum(p.income_level) })} · <bdi>{money(p.money)}</bdi>
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
function Market({ resource, cubes, colour, price }: { resource: "coal" | "iron"; cubes: number; colour: string; price: number }) {
  return (
    <div class="market" data-testid={`market-${resource}`}>
      <div class="market-head">
        {t("panel.market", { resource, n: cubes, price: money(price) })}
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
      <Market resource="coal" cubes={view.coal_market} colour="#222" price={view.coal_price} />
      <Market resource="iron" cubes={view.iron_market} colour="#e67e22" price={view.iron_price} />
      <div class="wilds">
        {t("panel.wilds", { location: view.wild_location_left, industry: view.wild_industry_left })}
      </div>
    </div>
  );
}

/** `ended`: the game was called off, so nobody is moving. */
export function Players({ view, names, viewerLabel = t("panel.you"), ended = false }: {
  view: View; names: (string | null)[]; viewerLabel?: string; ended?: boolean;
}): JSX.Element {
  const order = [...view.turn_order, ...view.players.map((p) => p.seat).filter((s) => !view.turn_order.includes(s))];
  return (
    <div class="players">
      {order.map((seat) => {
        const p = view.players[seat];
        const current = !ended && view.current_seat === seat;
        return (
          <div key={seat} class={`player panel${current ? " current" : ""}${view.viewer === seat ? " me" : ""}`}
            data-testid={`player-${seat}`} style={{ borderInlineStartColor: PLAYER_COLOURS[seat] }}>
            <div class="player-head">
              <Chip seat={seat} /> <b><bdi>{names[seat] ?? PLAYER_NAMES[seat]}</bdi></b>
              {view.viewer === seat && <span class="you"> ({viewerLabel})</span>}
              {current && <span class="moving"> {t("panel.moving")}</span>}
            </div>
            <div class="stats">
              <span title={t("log.col_money")} data-testid="money">{money(p.money)}</span>
              <span title={t("panel.income_title", { space: p.income_space })} data-testid="income">
                {t("panel.income_space", { level: signedNum(p.income_level), space: p.income_space })}</span>
              <span title={t("panel.vp_title")} data-testid="vp">{t("panel.vp", { n: p.vp })}</span>
              <span title={t("panel.spent_title")}>{t("panel.spent", { money: money(p.spent) })}</span>
              <span title={t("panel.links_title")}>{t("panel.links", { n: p.links_left })}</span>
              <span title={t("panel.cards_title")}>{t("panel.cards", { n: p.hand_size })}</span>
            </div>
            <div class="discard">
              {t("panel.discard", { card: p.discard_top ? cardName(p.discard_top) : "—" })}
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
      <caption class="sr-only">{t("mat.caption", { who: PLAYER_NAMES[seat] })}</caption>
      <thead>
        <tr>
          <th scope="col">{t("mat.next")}</th><th scope="col">{t("mat.cost")}</th><th scope="col">{t("mat.needs")}</th>
          <th scope="col">{t("log.col_vp")}</th><th scope="col">{t("log.col_income")}</th><th scope="col">{t("mat.left")}</th>
        </tr>
      </thead>
      <tbody>
        {INDUSTRIES.map((ind) => {
          const levels = mat[ind] ?? [];
          const spec = levels.length ? tileSpec(ind, levels[0]) : undefined;
          const needs = spec ? [spec.coal ? amountWords("coal", spec.coal) : "", spec.iron ? amountWords("iron", spec.iron) : "",
            spec.beer ? t("mat.sell_beer", { beer: amountWords("beer", spec.beer) }) : ""].filter(Boolean).join(t("list.separator")) : "";
          return (
            <tr key={ind} data-industry-row={ind}>
              <th scope="row">
                <span class="mat-tile" style={{ background: INDUSTRY_COLOUR[ind], color: ind === "coal" ? "#fff" : "#111" }}>
                  <IndustryIcon industry={ind} size={16} hidden /> {levels.length ? roman(levels[0]) : "—"}
                </span>
                <span class="sr-only">{INDUSTRY_NAME[ind]}</span>
              </th>
              <td>{spec ? money(spec.cost) : ""}</td>
              <td>{needs || (spec ? "—" : "")}</td>
              <td>{spec ? num(spec.vp) : ""}</td>
              <td>{spec ? signedNum(spec.income) : ""}</td>
              <td>{num(levels.length)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The pictures of an industry card's industries (none for a town or a wild card). */
export function CardIcons({ card }: { card: string }): JSX.Element | null {
  const [kind, what] = card.split(":");
  if (kind !== "industry") return null;
  const inds = what === "cotton_manufacturer" ? ["cotton", "manufacturer"] : [what];
  return <>{inds.map((i) => <IndustryIcon key={i} industry={i} size={16} hidden />)}{" "}</>;
}

export function Hand({ cards, playable, selected, onCard, title = t("panel.your_hand") }: {
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
              <CardIcons card={c} />{cardName(c)}
            </button>
          );
        })}
      </div>
    </div>
  );
}
