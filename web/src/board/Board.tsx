// The board as SVG: links under locations; towns with their slots and tiles; farm breweries;
// merchants with their tiles and barrels. Clickable targets are passed in as sets of keys.
import type { JSX } from "preact";
import merchantsData from "../../../data/merchants.json";
import type { MerchantView, TileView, View } from "../api/types";
import * as i18n from "../i18n";
import { list, money, t } from "../i18n";
import {
  INDUSTRY_COLOUR,
  INDUSTRY_NAME,
  linkName,
  LINKS,
  LOCATION,
  locationName,
  LOCATIONS,
  MERCHANT_BUYS,
  PLAYER_COLOURS,
  PLAYER_NAMES,
  roman,
  tileName,
  tileSpec,
} from "../logic/names";
import { amountWords } from "../logic/words";
import { box, HEIGHT, LINK_GEOM, slotBox, WIDTH } from "./layout";
import { IndustryGlyph, industryInk } from "./industries";
import { BoardMarkets } from "./Markets";
import { Piece } from "./pieces";
import { PLAYER_SYMBOL, symbolPath } from "./symbols";

/** What a details card is about: a slot (with its tile, if any), a link or a merchant. */
export type Info =
  | { kind: "slot"; location: string; slot: number }
  | { kind: "link"; id: string }
  | { kind: "merchant"; location: string };

export interface Targets {
  slots?: Set<string>; // "loc:slot" for empty/overbuild slots
  tiles?: Set<string>; // "loc:slot" of tiles to sell
  links?: Set<string>;
  merchants?: Set<string>; // merchant location ids
}

export interface BoardProps {
  view: View;
  targets?: Targets;
  selected?: Targets;
  recent?: Targets; // what the last move touched
  /** what a better move would have touched (the analysis in a replay): a ring of its own */
  better?: Targets;
  onSlot?: (location: string, slot: number) => void;
  onLink?: (id: string) => void;
  onMerchant?: (location: string) => void;
  /** a tap or click on something that is not a target, or a mouse over anything: its card */
  onInfo?: (i: Info | null, pinned: boolean) => void;
  /** a tap on a town (its box, not a slot): the target picker opens it */
  onTown?: (location: string) => void;
  /** numbers to draw on what the moves since the player's last turn touched, in order */
  order?: Map<string, number[]>;
}

/** Props that make a board element a target (a click or tap picks it) or, otherwise, a way
 * to its details card. The keyboard and screen readers reach a target through its `Focus`. */
function press(target: boolean | undefined, act: (() => void) | undefined, info: () => void,
  hover?: (on: boolean) => void) {
  const go = target && act ? act : info;
  return {
    onClick: (e: MouseEvent) => { e.stopPropagation(); go(); },
    onPointerEnter: hover ? (e: PointerEvent) => e.pointerType === "mouse" && hover(true) : undefined,
    onPointerLeave: hover ? (e: PointerEvent) => e.pointerType === "mouse" && hover(false) : undefined,
  };
}

/** The focusable, named stand-in of a target (a shape with no text of its own, so its name is
 * its label): Tab reaches it, Enter or Space picks it. */
function Focus({ on, label, act, b, circle }: {
  on: boolean | undefined;
  label: string;
  act: (() => void) | undefined;
  b: { x: number; y: number; w: number; h: number };
  circle?: boolean;
}) {
  if (!on || !act) return null;
  const keys = {
    tabindex: 0, // lower case: an SVG attribute (Preact sets it as written)
    role: "button" as const,
    "aria-label": label,
    class: "focus-target",
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); act(); }
    },
  };
  return circle
    ? <circle cx={b.x + b.w / 2} cy={b.y + b.h / 2} r={b.w / 2} {...keys} />
    : <rect x={b.x} y={b.y} width={b.w} height={b.h} rx={4} {...keys} />;
}

const key = (l: string, s: number) => `${l}:${s}`;

/** "Brewery I in Stafford (Red ●)", or "Sell …": a tile as a target is named. */
export function tileLabel(tile: TileView, sell: boolean): string {
  return t("board.tile_label", {
    sell: sell ? "yes" : "no", tile: tileName(tile.industry, tile.level), location: locationName(tile.location),
    owner: `${PLAYER_NAMES[tile.owner]} ${PLAYER_SYMBOL[tile.owner]}`,
  });
}

/** "Leek slot 2: Cotton Mill or Coal Mine": an empty slot as a target is named. */
export function slotLabel(location: string, slot: number): string {
  const accepts = LOCATION[location]?.slots[slot] ?? [];
  return t("board.slot_label", { location: locationName(location), slot: slot + 1, industries: list(accepts.map((a) => INDUSTRY_NAME[a]), "disjunction") });
}

/** A tile's coal or iron cubes, or its beer barrels, in one row from the left of its middle
 * band (drawn for 54-unit slots, scaled by `k`): the board's pieces (board/pieces.tsx). */
function Resources({ t, b, k, room }: { t: TileView; b: { x: number; y: number; w: number; h: number }; k: number; room: number }) {
  if (t.resources <= 0) return null;
  const kind = t.industry === "brewery" ? "beer" : t.industry === "iron" ? "iron" : "coal";
  const pitch = Math.min(7.5, room / t.resources);
  const items = Array.from({ length: t.resources }, (_, i) => (
    <Piece key={i} resource={kind} x={b.x + (3 + i * pitch) * k} y={b.y + 24.5 * k} w={(pitch - 1) * k} h={6.5 * k} />
  ));
  return <g class="resources" data-resources={t.resources}>{items}</g>;
}

/** A built tile as printed, large enough to read from the whole map: the industry's picture
 * and the level in its band, the resources on it and its owner's symbol in the middle, the VP
 * (a disc, black once flipped) and the income at the bottom; the owner's colour all round. */
function Tile({ t, b }: { t: TileView; b: { x: number; y: number; w: number; h: number } }) {
  const spec = tileSpec(t.industry, t.level);
  const title = [
    i18n.t("board.tile_title", { owner: PLAYER_NAMES[t.owner], tile: tileName(t.industry, t.level), flipped: t.flipped ? "yes" : "no" }),
    t.resources ? amountWords(t.industry === "brewery" ? "beer" : t.industry, t.resources) : "",
    spec ? i18n.t("board.tile_worth", { vp: spec.vp, income: i18n.signedNum(spec.income), links: spec.link_icons }) : "",
  ].filter(Boolean).join(" · ");
  const k = b.w / 54; // drawn for 54-unit slots, scaled
  const level = roman(t.level);
  const vp = spec ? i18n.num(spec.vp) : "";
  return (
    <g class={`tile${t.flipped ? " flipped" : ""}`} data-tile={`${t.location}:${t.slot}`} data-owner={t.owner}>
      <title>{title}</title>
      <rect x={b.x} y={b.y} width={b.w} height={b.h} rx={5 * k} fill={PLAYER_COLOURS[t.owner]} class="tile-face" />
      {t.flipped && <rect x={b.x + 2 * k} y={b.y + 2 * k} width={b.w - 4 * k} height={b.h - 4 * k} rx={4 * k} class="tile-flip-frame" />}
      <rect x={b.x + 2 * k} y={b.y + 2 * k} width={b.w - 4 * k} height={21 * k} rx={3 * k} fill={INDUSTRY_COLOUR[t.industry]} />
      <IndustryGlyph industry={t.industry} x={b.x + 3 * k} y={b.y + 2.5 * k} size={20 * k} />
      <text x={b.x + b.w - 4 * k} y={b.y + 19.5 * k} class="tile-level" fill={industryInk(t.industry)}
        style={{ fontSize: `${21 * k}px` }} {...(level.length > 2 ? { textLength: 26 * k, lengthAdjust: "spacingAndGlyphs" } : {})}>{level}</text>
      <Resources t={t} b={b} k={k} room={38} />
      <path d={symbolPath(t.owner, b.x + b.w - 7.5 * k, b.y + 28 * k, 4.5 * k)} class="tile-symbol" />
      {spec && (
        <g class={`tile-worth${t.flipped ? " scored" : ""}`}>
          <circle cx={b.x + 13 * k} cy={b.y + 42.5 * k} r={11 * k} class="tile-vp-disc" />
          <text x={b.x + 13 * k} y={b.y + 49.5 * k} class="tile-vp" style={{ fontSize: `${21 * k}px` }}
            {...(vp.length > 1 ? { textLength: 19 * k, lengthAdjust: "spacingAndGlyphs" } : {})}>{vp}</text>
          {Array.from({ length: spec.link_icons }, (_, i) => (
            <rect key={i} x={b.x + 25.5 * k} y={b.y + (37 + i * 6) * k} width={3.5 * k} height={4 * k} class="tile-link-icon" />
          ))}
          <rect x={b.x + b.w - 25 * k} y={b.y + 33 * k} width={23 * k} height={19 * k} rx={2 * k} class="tile-income-box" />
          <text x={b.x + b.w - 13.5 * k} y={b.y + 49.5 * k} class="tile-income" style={{ fontSize: `${21 * k}px` }}
            textLength={20 * k} lengthAdjust="spacingAndGlyphs">{i18n.signedNum(spec.income)}</text>
        </g>
      )}
    </g>
  );
}

/** An empty slot: the pictures of the industries it takes, one band each. */
function EmptySlot({ accepts, b }: { accepts: string[]; b: { x: number; y: number; w: number; h: number } }) {
  const h = b.h / accepts.length;
  const size = Math.min(h - 4, 30);
  return (
    <g class="slot-empty">
      <title>{list(accepts.map((a) => INDUSTRY_NAME[a]), "disjunction")}</title>
      {accepts.map((a, i) => (
        <g key={a}>
          <rect x={b.x} y={b.y + i * h} width={b.w} height={h} fill={INDUSTRY_COLOUR[a]} opacity={0.6} />
          <IndustryGlyph industry={a} x={b.x + (b.w - size) / 2} y={b.y + i * h + (h - size) / 2} size={size} />
        </g>
      ))}
      <rect x={b.x} y={b.y} width={b.w} height={b.h} rx={3} fill="none" stroke="#6b5a45" stroke-width={1} />
    </g>
  );
}

/** What a merchant tile shows it buys: the good its view names, every good for "all" (the
 * tiles of data/merchants.json are named by what they buy), none for a blank. */
const GOODS = Object.keys(merchantsData.tiles["4"]).filter((b) => b !== "all" && b !== "blank");
const merchantGoods = (buys: string): string[] => (buys === "all" ? GOODS : buys === "blank" ? [] : [buys]);

/** A merchant tile as the server's view has it: the pictures of the goods it buys, and its
 * barrel of beer (the board's piece) while it has one; an empty slot where the view has none. */
function MerchantTile({ m, b }: { m: MerchantView | undefined; b: { x: number; y: number; w: number; h: number } }) {
  if (!m) {
    return <rect x={b.x} y={b.y} width={b.w} height={b.h} rx={3} class="merchant-none" />;
  }
  const goods = merchantGoods(m.buys);
  const size = goods.length > 1 ? 17 : 28;
  return (
    <g class="merchant-tile" data-merchant={`${m.location}:${m.slot}`} data-buys={goods.join(" ")} data-beer={m.beer ? 1 : 0}>
      <title>{t("board.merchant_tile", { buys: MERCHANT_BUYS[m.buys], beer: m.beer ? "yes" : "no" })}</title>
      <rect x={b.x} y={b.y} width={b.w} height={b.h} rx={3} class={`merchant-face${m.buys === "blank" ? " blank" : ""}`} />
      {goods.map((g, i) => (
        <g key={g} class="merchant-good" data-good={g}>
          <rect x={b.x + 2 + i * (size + 0.5)} y={b.y + 2} width={size} height={size} rx={3} fill={INDUSTRY_COLOUR[g]} />
          <IndustryGlyph industry={g} x={b.x + 2 + i * (size + 0.5) + size * 0.1} y={b.y + 2 + size * 0.1} size={size * 0.8} />
        </g>
      ))}
      {m.buys === "blank" && <text x={b.x + b.w / 2} y={b.y + 24} class="merchant-buys">—</text>}
      {m.beer && <Piece resource="beer" x={b.x + b.w / 2 - 8} y={b.y + b.h - 21} w={16} h={18} class="merchant-beer" />}
    </g>
  );
}

export function Board(p: BoardProps): JSX.Element {
  const v = p.view;
  const tiles = new Map(v.industries.map((t) => [key(t.location, t.slot), t]));
  const built = new Map(v.links.map((l) => [l.id, l]));
  const merchants = new Map(v.merchants.map((m) => [key(m.location, m.slot), m]));
  // a merchant is in play when the view has its tiles (the server says, not a rule here)
  const inPlay = new Set(v.merchants.map((m) => m.location));
  const T = p.targets ?? {};
  const S = p.selected ?? {};
  const R = p.recent ?? {};
  const info = (i: Info) => () => p.onInfo?.(i, true);
  const hover = (i: Info) => (p.onInfo ? (on: boolean) => p.onInfo!(on ? i : null, false) : undefined);

  return (
    <svg class="board" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} xmlns="http://www.w3.org/2000/svg" role="group" aria-label={t("board.label")}
      onClick={() => p.onInfo?.(null, true)}>
      <rect x={0} y={0} width={WIDTH} height={HEIGHT} fill="#efe4c8" class="board-bg" />
      {/* links */}
      <g class="links">
        {LINKS.map((l) => {
          const g = LINK_GEOM[l.id];
          const b = built.get(l.id);
          const target = T.links?.has(l.id);
          const sel = S.links?.has(l.id);
          const cls = `link${l.canal ? " canal-ok" : ""}${l.rail ? " rail-ok" : ""}${target ? " target" : ""}${sel ? " selected" : ""}${b ? " built" : ""}`;
          const d = `M${g.a[0]},${g.a[1]} L${g.b[0]},${g.b[1]}` + (g.spur ? ` M${g.mid[0]},${g.mid[1]} L${g.spur[0]},${g.spur[1]}` : "");
          const it: Info = { kind: "link", id: l.id };
          return (
            <g class={cls} data-link={l.id} key={l.id} onClick={(e) => { e.stopPropagation(); (target && p.onLink ? () => p.onLink!(l.id) : info(it))(); }}
              onPointerEnter={(e) => e.pointerType === "mouse" && hover(it)?.(true)} onPointerLeave={(e) => e.pointerType === "mouse" && hover(it)?.(false)}>
              <title>{t("board.link_title", {
                link: linkName(l.id), allowed: !l.canal ? "rail" : !l.rail ? "canal" : "both",
                built: b ? b.kind : "no", owner: b ? PLAYER_NAMES[b.owner] : "",
              })}</title>
              <path d={d} class="link-hit" />
              {b ? (
                <>
                  <path d={d} class={`link-built ${b.kind}`} stroke={PLAYER_COLOURS[b.owner]} />
                  {b.kind === "rail" && <path d={d} class="rail-ties" />}
                  {b.kind === "canal" && <path d={d} class="canal-water" />}
                  <path d={symbolPath(b.owner, g.seenMid[0], g.seenMid[1], 6)} class="link-symbol" fill={PLAYER_COLOURS[b.owner]} />
                </>
              ) : (
                <path d={d} class={`link-free ${!l.canal ? "rail-only" : !l.rail ? "canal-only" : "both"}`} />
              )}
              {R.links?.has(l.id) && !target && !sel && <circle cx={g.seenMid[0]} cy={g.seenMid[1]} r={11} class="recent-marker" />}
              {!b && !l.canal && !target && !sel && <text x={g.seenMid[0]} y={g.seenMid[1] + 4} class="link-only">{t("board.rail_letter")}</text>}
              {!b && !l.rail && !target && !sel && <text x={g.seenMid[0]} y={g.seenMid[1] + 4} class="link-only canal">{t("board.canal_letter")}</text>}
            </g>
          );
        })}
      </g>
      {/* locations */}
      {LOCATIONS.map((l) => {
        const b = box(l.id);
        if (l.kind === "merchant") {
          const active = inPlay.has(l.id);
          const target = T.merchants?.has(l.id);
          const sel = S.merchants?.has(l.id);
          const it: Info = { kind: "merchant", location: l.id };
          return (
            <g key={l.id} class={`location merchant${active ? "" : " inactive"}${target ? " target" : ""}${sel ? " selected" : ""}`}
              data-location={l.id} {...press(target, p.onMerchant && (() => p.onMerchant!(l.id)), info(it), hover(it))}>
              <rect x={b.x - 4} y={b.y - 4} width={b.w + 8} height={b.h + 8} rx={8} class="merchant-box" />
              <g>
                <text x={b.x + b.w / 2} y={b.y - 10} class="loc-name">{locationName(l.id)}</text>
                <text x={b.x + b.w / 2} y={b.y + b.h + 18} class="merchant-bonus">{bonusText(l.bonus)}</text>
                {Array.from({ length: l.merchantSlots }, (_, i) => (
                  <MerchantTile key={i} m={active ? merchants.get(key(l.id, i)) : undefined} b={slotBox(l.id, i)} />
                ))}
              </g>
              <Focus on={target} label={t("board.sell_to", { merchant: locationName(l.id) })} act={p.onMerchant && (() => p.onMerchant!(l.id))}
                b={{ x: b.x - 4, y: b.y - 4, w: b.w + 8, h: b.h + 8 }} />
            </g>
          );
        }
        return (
          <g key={l.id} class={`location ${l.kind}`} data-location={l.id}
            onClick={p.onTown ? (e) => { e.stopPropagation(); p.onTown!(l.id); p.onInfo?.(null, true); } : undefined}>
            <rect x={b.x} y={b.y} width={b.w} height={b.h} rx={6} class={l.kind === "farm" ? "farm-box" : "town-box"} />
            <text x={b.x + b.w / 2} y={b.y - 6} class={l.kind === "farm" ? "loc-name farm-name" : "loc-name"}>
              {l.kind === "farm" ? t("board.farm") : locationName(l.id)}
            </text>
            {l.slots.map((accepts, i) => {
              const sb = slotBox(l.id, i);
              const k = key(l.id, i);
              const t = tiles.get(k);
              const target = T.slots?.has(k) || T.tiles?.has(k);
              const sel = S.slots?.has(k) || S.tiles?.has(k);
              const it: Info = { kind: "slot", location: l.id, slot: i };
              const label = t ? tileLabel(t, !!T.tiles?.has(k)) : slotLabel(l.id, i);
              return (
                <g key={i} class={`slot${target ? " target" : ""}${sel ? " selected" : ""}`} data-slot={k}
                  {...press(target, p.onSlot && (() => p.onSlot!(l.id, i)), info(it), hover(it))}>
                  {t ? <Tile t={t} b={sb} /> : <EmptySlot accepts={accepts} b={sb} />}
                  {(R.slots?.has(k) || R.tiles?.has(k)) && !target && !sel && (
                    <rect x={sb.x - 3} y={sb.y - 3} width={sb.w + 6} height={sb.h + 6} rx={5} class="recent-ring" />
                  )}
                  {(target || sel) && <rect x={sb.x - 3} y={sb.y - 3} width={sb.w + 6} height={sb.h + 6} rx={5} class="slot-ring" />}
                  <Focus on={target} label={label} act={p.onSlot && (() => p.onSlot!(l.id, i))} b={{ x: sb.x - 3, y: sb.y - 3, w: sb.w + 6, h: sb.h + 6 }} />
                  {p.order?.get(`slot:${k}`) && <OrderBadge x={sb.x + sb.w} y={sb.y} n={p.order.get(`slot:${k}`)!} />}
                </g>
              );
            })}
          </g>
        );
      })}
      {/* what can be clicked of the links to click, above the locations (a short link's
          middle can lie under a town): the part outside the towns, and a marker on it */}
      <g class="link-markers">
        {LINKS.filter((l) => T.links?.has(l.id) || S.links?.has(l.id)).map((l) => {
          const g = LINK_GEOM[l.id];
          const target = T.links?.has(l.id);
          const [a, b] = g.seen;
          return (
            <g key={l.id} data-link={l.id} class={`link${target ? " target" : ""}${S.links?.has(l.id) ? " selected" : ""}`}
              {...press(target, p.onLink && (() => p.onLink!(l.id)), info({ kind: "link", id: l.id }))}>
              <path d={`M${a[0]},${a[1]} L${b[0]},${b[1]}`} class="link-hit" />
              <circle cx={g.seenMid[0]} cy={g.seenMid[1]} r={11} class="link-marker" />
              <Focus on={target} circle label={t("board.link_label", { link: linkName(l.id) })} act={p.onLink && (() => p.onLink!(l.id))}
                b={{ x: g.seenMid[0] - 13, y: g.seenMid[1] - 13, w: 26, h: 26 }} />
            </g>
          );
        })}
      </g>
      <g class="order-badges">
        {LINKS.filter((l) => p.order?.get(`link:${l.id}`)).map((l) => (
          <OrderBadge key={l.id} x={LINK_GEOM[l.id].seenMid[0]} y={LINK_GEOM[l.id].seenMid[1]} n={p.order!.get(`link:${l.id}`)!} />
        ))}
      </g>
      <BoardMarkets view={v} />
      <Legend />
      {p.better && <BetterMarks better={p.better} />}
      <g class="anim-layer" aria-hidden="true" />
    </svg>
  );
}

/** Where the analysis' better move would have built, sold or laid links: a dashed ring of
 * its own colour above everything (the board shows the position after the move made, so the
 * place may hold what was built there instead). */
function BetterMarks({ better }: { better: Targets }) {
  const places = [...(better.slots ?? []), ...(better.tiles ?? [])];
  return (
    <g class="better-marks" data-testid="better-marks">
      {places.map((k) => {
        const [location, slot] = k.split(":");
        const sb = slotBox(location, Number(slot));
        return <rect key={`s${k}`} data-better={k} x={sb.x - 6} y={sb.y - 6} width={sb.w + 12} height={sb.h + 12} rx={7} class="better-ring" />;
      })}
      {[...(better.links ?? [])].map((id) => {
        const g = LINK_GEOM[id];
        return g && <circle key={`l${id}`} data-better={id} cx={g.seenMid[0]} cy={g.seenMid[1]} r={14} class="better-marker" />;
      })}
    </g>
  );
}

/** The order of the moves since the player's last turn that touched this place. */
function OrderBadge({ x, y, n }: { x: number; y: number; n: number[] }) {
  const text = n.map(i18n.num).join(",");
  const w = 10 + text.length * 8;
  return (
    <g class="order-badge" aria-hidden="true">
      <rect x={x - w / 2} y={y - 10} width={w} height={20} rx={10} />
      <text x={x} y={y + 5}>{text}</text>
    </g>
  );
}

function Legend() {
  const x = 1010;
  const y = 1150;
  return (
    <g class="legend" aria-hidden="true">
      <rect x={x - 10} y={y - 22} width={200} height={116} rx={8} fill="#f7efdc" stroke="#b9a57f" />
      <path d={`M${x},${y} h40`} class="link-free both" />
      <text x={x + 50} y={y + 4}>{t("board.legend_both")}</text>
      <path d={`M${x},${y + 22} h40`} class="link-free rail-only" />
      <text x={x + 50} y={y + 26}>{t("board.legend_rail", { letter: t("board.rail_letter") })}</text>
      <path d={`M${x},${y + 44} h40`} class="link-free canal-only" />
      <text x={x + 50} y={y + 48}>{t("board.legend_canal", { letter: t("board.canal_letter") })}</text>
      <path d={`M${x},${y + 66} h40`} class="link-built canal" stroke="#888" />
      <path d={`M${x},${y + 66} h40`} class="canal-water" />
      <path d={`M${x + 100},${y + 66} h40`} class="link-built rail" stroke="#888" />
      <path d={`M${x + 100},${y + 66} h40`} class="rail-ties" />
      <text x={x + 20} y={y + 88} text-anchor="middle">{t("board.legend_canal_built")}</text>
      <text x={x + 120} y={y + 88} text-anchor="middle">{t("board.legend_rail_built")}</text>
    </g>
  );
}

function bonusText(b?: { kind: string; amount: number }): string {
  return b ? t("board.bonus", { kind: b.kind, n: b.amount, money: money(b.amount) }) : "";
}
