// The details card of whatever was tapped or hovered on the board: a slot and its tile, a link,
// a merchant. Figures are the printed tile data (data/tiles.json, the file the engine reads) and
// the server's view; nothing is worked out here.
import { Icon } from "./icons";
import type { JSX } from "preact";
import type { View } from "../api/types";
import type { Info } from "../board/Board";
import { box, LINK_GEOM, WIDTH } from "../board/layout";
import { list, money, signedNum, t } from "../i18n";
import { INDUSTRY_NAME, linkName, LINKS, LOCATION, locationName, MERCHANT_BUYS, placeName, seatWithSymbol, tileName, tileSpec } from "../logic/names";
import { amountWords, cubeWords, needsWords } from "../logic/words";

/** The lines of a details card (a title, then facts). */
export function detailLines(view: View, info: Info, names: (string | null)[] = []): { title: string; lines: string[] } {
  const who = (seat: number) => seatWithSymbol(seat, names);
  if (info.kind === "slot") {
    const l = LOCATION[info.location];
    const tile = view.industries.find((x) => x.location === info.location && x.slot === info.slot);
    if (!tile) {
      const accepts = l.slots[info.slot] ?? [];
      return {
        title: t("details.slot_title", { location: placeName(l.id), slot: info.slot + 1 }),
        lines: [t("details.empty", { industries: list(accepts.map((a) => INDUSTRY_NAME[a]), "disjunction") })],
      };
    }
    const spec = tileSpec(tile.industry, tile.level);
    const lines = [t("details.owner", { who: who(tile.owner) }), tile.flipped ? t("details.flipped") : t("details.not_flipped")];
    if (tile.resources > 0) lines.push(t("details.on_it", { what: cubeWords(tile.industry, tile.resources) }));
    if (spec) {
      lines.push(t("details.worth", { vp: spec.vp, income: spec.income, spaces: signedNum(spec.income) }));
      lines.push(t("details.link_icons", { n: spec.link_icons }));
      lines.push(t("details.built_for", { cost: money(spec.cost), needs: needsWords(spec), era: spec.era }));
      if (spec.beer) lines.push(t("details.sell_needs", { beer: amountWords("beer", spec.beer) }));
    }
    return { title: t("log.tile_at", { tile: tileName(tile.industry, tile.level), location: placeName(l.id) }), lines };
  }
  if (info.kind === "link") {
    const l = LINKS.find((x) => x.id === info.id)!;
    const b = view.links.find((x) => x.id === info.id);
    const lines = [t("details.allowed", { kind: l.canal && l.rail ? "both" : l.canal ? "canal" : "rail" })];
    if (l.also_connects?.length) lines.push(t("details.also_connects", { places: list(l.also_connects.map(locationName)) }));
    lines.push(b ? t("details.built", { owner: who(b.owner), kind: b.kind }) : t("details.not_built"));
    return { title: linkName(info.id), lines };
  }
  const l = LOCATION[info.location];
  const tiles = view.merchants.filter((m) => m.location === info.location);
  const lines = [tiles.length > 0 ? t("details.in_play", { min: l.minPlayers })
    : t("details.not_in_play", { n: view.num_players })];
  for (const m of tiles) lines.push(t("details.merchant_tile", { n: m.slot + 1, buys: MERCHANT_BUYS[m.buys], beer: m.beer ? "yes" : "no" }));
  if (l.bonus) lines.push(t("details.bonus", { kind: l.bonus.kind, n: l.bonus.amount, money: money(l.bonus.amount) }));
  return { title: t("details.merchant", { name: placeName(l.id) }), lines };
}

/** Where on the map (its x) a card's subject lies: the card sits at the other side of the
 * board's area, so that it never hides what it tells of (nor what the pointer is on). */
function mapX(info: Info): number {
  if (info.kind === "link") return LINK_GEOM[info.id]?.seenMid[0] ?? 0;
  const b = box(info.location);
  return b.x + b.w / 2;
}

export function DetailsCard({ view, info, names, onClose, pinned = true }: {
  view: View;
  info: Info;
  names?: (string | null)[];
  onClose: () => void;
  /** false: shown while the mouse is over it on the board, and clicks pass through it */
  pinned?: boolean;
}): JSX.Element {
  const d = detailLines(view, info, names);
  return (
    <div class={`details-card panel ${mapX(info) < WIDTH / 2 ? "far-right" : "far-left"}${pinned ? "" : " hovering"}`} data-testid="details" role={pinned ? "dialog" : "status"} aria-label={d.title}>
      <div class="details-head">
        <b>{d.title}</b>
        <button type="button" class="close" aria-label={t("details.close")} onClick={onClose}><Icon name="close" /></button>
      </div>
      <ul>{d.lines.map((l, i) => <li key={i}>{l}</li>)}</ul>
    </div>
  );
}
