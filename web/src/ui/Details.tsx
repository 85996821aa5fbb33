// The details card of whatever was tapped or hovered on the board: a slot and its tile, a link,
// a merchant. Figures are the printed tile data (data/tiles.json, the file the engine reads) and
// the server's view; nothing is worked out here.
import type { JSX } from "preact";
import type { View } from "../api/types";
import type { Info } from "../board/Board";
import { PLAYER_SYMBOL } from "../board/symbols";
import { INDUSTRY_NAME, linkName, LINKS, LOCATION, MERCHANT_BUYS, money, PLAYER_NAMES, roman, tileSpec } from "../logic/names";
import { plural } from "./Preview";

function needs(spec: { coal: number; iron: number }): string {
  const parts = [spec.coal ? `${spec.coal} coal` : "", spec.iron ? `${spec.iron} iron` : ""].filter(Boolean);
  return parts.length ? parts.join(" + ") : "no coal or iron";
}

function eraWords(era: string): string {
  return era === "canal" ? "canal era only" : era === "rail" ? "rail era only" : "either era";
}

/** The lines of a details card (a title, then facts). */
export function detailLines(view: View, info: Info, names: (string | null)[] = []): { title: string; lines: string[] } {
  const who = (seat: number) => `${names[seat] ?? PLAYER_NAMES[seat]} (${PLAYER_NAMES[seat]} ${PLAYER_SYMBOL[seat]})`;
  if (info.kind === "slot") {
    const l = LOCATION[info.location];
    const t = view.industries.find((x) => x.location === info.location && x.slot === info.slot);
    if (!t) {
      const accepts = l.slots[info.slot] ?? [];
      return {
        title: `${l.name}, slot ${info.slot + 1}`,
        lines: [`Empty: takes ${accepts.map((a) => INDUSTRY_NAME[a]).join(" or ")}`],
      };
    }
    const spec = tileSpec(t.industry, t.level);
    const lines = [`Owner: ${who(t.owner)}`, t.flipped ? "Flipped: it scores at the end of each era" : "Not flipped yet"];
    if (t.resources > 0) lines.push(`On it: ${plural(t.resources, t.industry === "brewery" ? "beer barrel" : `${t.industry} cube`)}`);
    if (spec) {
      lines.push(`Worth: ${spec.vp} VP when flipped, +${plural(spec.income, "income space")} on flipping`);
      lines.push(`Link icons: ${spec.link_icons} (each adjacent link scores them)`);
      lines.push(`Built for ${money(spec.cost)} and ${needs(spec)}; ${eraWords(spec.era)}`);
      if (spec.beer) lines.push(`Selling it needs ${plural(spec.beer, "beer")}`);
    }
    return { title: `${INDUSTRY_NAME[t.industry]} ${roman(t.level)} in ${l.name}`, lines };
  }
  if (info.kind === "link") {
    const l = LINKS.find((x) => x.id === info.id)!;
    const b = view.links.find((x) => x.id === info.id);
    const lines = [`Allowed: ${l.canal && l.rail ? "canal or rail" : l.canal ? "canal only" : "rail only"}`];
    if (l.also_connects?.length) lines.push(`Also connects: ${l.also_connects.map((c) => LOCATION[c]?.name ?? c).join(", ")}`);
    lines.push(b ? `Built: ${who(b.owner)}'s ${b.kind}` : "Not built");
    return { title: linkName(info.id), lines };
  }
  const l = LOCATION[info.location];
  const tiles = view.merchants.filter((m) => m.location === info.location);
  const lines = [view.num_players >= l.minPlayers ? `In play (${l.minPlayers}+ players)` : `Not in play with ${view.num_players} players`];
  for (const m of tiles) lines.push(`Tile ${m.slot + 1}: buys ${MERCHANT_BUYS[m.buys]}${m.beer ? ", 1 beer barrel" : ", no beer"}`);
  if (l.bonus) {
    const b = l.bonus;
    const what = b.kind === "vp" ? `${b.amount} VP` : b.kind === "income" ? `+${plural(b.amount, "income space")}` : b.kind === "money" ? money(b.amount) : "a free develop";
    lines.push(`Selling with its beer gives ${what}`);
  }
  return { title: `${l.name} (merchant)`, lines };
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
    <div class={`details-card panel${pinned ? "" : " hovering"}`} data-testid="details" role={pinned ? "dialog" : "status"} aria-label={d.title}>
      <div class="details-head">
        <b>{d.title}</b>
        <button type="button" class="close" aria-label="Close details" onClick={onClose}>✕</button>
      </div>
      <ul>{d.lines.map((l, i) => <li key={i}>{l}</li>)}</ul>
    </div>
  );
}
