// The board's targets of the current step as large buttons: the way to pick on a phone (a slot
// on the board is a few pixels wide there), with the keyboard and with a screen reader. Many
// targets are grouped by town: a town first, then its slots and links. Tapping a town on the
// board opens its group here.
import type { JSX } from "preact";
import type { View } from "../api/types";
import type { Targets } from "../board/Board";
import { slotLabel, tileLabel } from "../board/Board";
import { num, t } from "../i18n";
import { IndustryIcon } from "../board/industries";
import { linkName, LINKS, LOCATION, locationName } from "../logic/names";
import { merchantBuysWords } from "../logic/words";

export interface Target {
  key: string; // "slot:loc:i", "link:id", "merchant:loc"
  label: string;
  groups: string[]; // location ids it is listed under
  industries?: string[]; // a slot's: its tile's industry, or the ones it takes (their pictures)
  pick: () => void;
}

/** Every target of the step, labelled, with the towns it belongs to. */
export function targetList(view: View, targets: Targets, on: {
  onSlot: (location: string, slot: number) => void;
  onLink: (id: string) => void;
  onMerchant: (location: string) => void;
}): Target[] {
  const out: Target[] = [];
  const slots = [...(targets.slots ?? []), ...(targets.tiles ?? [])];
  for (const k of slots) {
    const [loc, n] = k.split(":");
    const slot = Number(n);
    const tile = view.industries.find((x) => x.location === loc && x.slot === slot);
    const label = tile ? tileLabel(tile, false) : slotLabel(loc, slot);
    const industries = tile ? [tile.industry] : LOCATION[loc]?.slots[slot] ?? [];
    out.push({ key: `slot:${k}`, label, groups: [loc], industries, pick: () => on.onSlot(loc, slot) });
  }
  for (const id of targets.links ?? []) {
    const l = LINKS.find((x) => x.id === id);
    out.push({ key: `link:${id}`, label: t("board.link_label", { link: linkName(id) }), groups: l ? [...l.ends, ...(l.also_connects ?? [])] : [], pick: () => on.onLink(id) });
  }
  for (const loc of targets.merchants ?? []) {
    const buys = merchantBuysWords(view.merchants, loc);
    out.push({ key: `merchant:${loc}`, label: t("picker.sell_to", { merchant: locationName(loc), buys }), groups: [loc], pick: () => on.onMerchant(loc) });
  }
  return out;
}

/** At most this many targets are listed at once; more are grouped by town. */
const FLAT = 8;

export function TargetPicker({ targets, town, setTown }: {
  targets: Target[];
  town: string | null;
  setTown: (t: string | null) => void;
}): JSX.Element | null {
  if (targets.length === 0) return null;
  const towns = [...new Set(targets.flatMap((t) => t.groups))].sort((a, b) => locationName(a).localeCompare(locationName(b)));
  const grouped = targets.length > FLAT && towns.length > 1;
  const open = grouped && town !== null && towns.includes(town) ? town : null;
  const items = !grouped ? targets : open ? targets.filter((t) => t.groups.includes(open)) : [];
  return (
    <div class="picker" data-testid="picker" role="group" aria-label={t("picker.label")}>
      {grouped && open === null && (
        <>
          <div class="picker-title">{t("picker.choose_town", { n: targets.length })}</div>
          <div class="picker-grid">
            {towns.map((loc) => (
              <button key={loc} type="button" class="picker-button" data-offer data-pick-town={loc} onClick={() => setTown(loc)}>
                {locationName(loc)} <span class="count">{num(targets.filter((t) => t.groups.includes(loc)).length)}</span>
              </button>
            ))}
          </div>
        </>
      )}
      {open && (
        <div class="picker-title">
          <button type="button" class="picker-back" data-offer data-testid="picker-back" onClick={() => setTown(null)}>{t("picker.towns")}</button>
          <span>{locationName(open)}</span>
        </div>
      )}
      {items.length > 0 && (
        <div class="picker-grid">
          {items.map((t) => (
            <button key={t.key} type="button" class="picker-button" data-offer data-target={t.key} onClick={() => { setTown(null); t.pick(); }}>
              {t.industries?.map((i) => <IndustryIcon key={i} industry={i} size={16} hidden />)}{t.industries?.length ? " " : ""}{t.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
