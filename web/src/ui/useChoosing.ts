// The choosing state of the seat to move: the choice so far (kind, card, picks), the tile of a
// sale waiting for its merchant, what the board and the hand offer for it, and the clicks that
// narrow it.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { LegalEntry } from "../api/types";
import type { Targets } from "../board/Board";
import { t } from "../i18n";
import { autoChoose, cardOptions, type Choice, choiceDropped, EMPTY, parseSale, pickOptions, salesByTile, withSlot } from "../logic/choose";

/** Board targets for the current choice. */
export function boardTargets(entries: LegalEntry[], c: Choice, pendingTile: string | null): { targets: Targets; selected: Targets } {
  const targets: Targets = { slots: new Set(), tiles: new Set(), links: new Set(), merchants: new Set() };
  const selected: Targets = { slots: new Set(), tiles: new Set(), links: new Set(), merchants: new Set() };
  if (!c.kind) return { targets, selected };
  const opts = pickOptions(entries, c);
  for (const p of c.picks) {
    if (p.startsWith("slot:")) selected.slots!.add(p.slice(5));
    if (p.startsWith("link:")) selected.links!.add(p.slice(5));
    if (p.startsWith("sale:")) {
      const s = parseSale(p);
      selected.tiles!.add(`${s.location}:${s.slot}`);
      selected.merchants!.add(s.merchant);
    }
  }
  if (pendingTile) selected.tiles!.add(pendingTile);
  for (const o of opts) {
    if (o.startsWith("slot:")) targets.slots!.add(o.slice(5));
    if (o.startsWith("link:")) targets.links!.add(o.slice(5));
  }
  if (c.kind === "sell") {
    const byTile = salesByTile(opts);
    if (pendingTile) for (const p of byTile.get(pendingTile) ?? []) targets.merchants!.add(parseSale(p).merchant);
    else for (const k of byTile.keys()) targets.tiles!.add(k);
  }
  return { targets, selected };
}

export interface Choosing {
  choice: Choice;
  setChoice: (c: Choice) => void;
  pendingTile: string | null;
  setPendingTile: (t: string | null) => void;
  targets: Targets;
  selected: Targets;
  /** cards of the hand that lead to a listed move under the choice */
  playable: Set<string>;
  onSlot: (location: string, slot: number) => void;
  onLink: (link: string) => void;
  onMerchant: (location: string) => void;
  onCard: (card: string) => void;
}

export interface ChoiceState {
  choice: Choice;
  setChoiceRaw: (c: Choice) => void;
  pendingTile: string | null;
  setPendingTile: (t: string | null) => void;
  /** a choice in the making was cleared by a version this device did not send (a move from
   * this seat on another device, say): said until the next click of the choice or dismissed */
  dropped: boolean;
  dismiss: () => void;
  /** this device sends a move or an undo from `version` (null: it was refused): the version it
   * brings clears the choice without a word */
  sending: (version: number | null) => void;
}

/** The choice itself, reset at each new version (the legal moves depend on it, through their
 * extensions, and it on them: see useChoosing). */
export function useChoiceState(version: number): ChoiceState {
  const [choice, setChoice] = useState<Choice>(EMPTY);
  const [pendingTile, setTile] = useState<string | null>(null);
  const [dropped, setDropped] = useState(false);
  const seen = useRef(version); // the version the choice is made at
  const sent = useRef<number | null>(null);
  useEffect(() => {
    if (choiceDropped(choice, pendingTile, seen.current, version, sent.current)) setDropped(true);
    seen.current = version;
    sent.current = null;
    setChoice(EMPTY);
    setTile(null);
  }, [version]);
  return {
    choice,
    setChoiceRaw: (c) => {
      setDropped(false);
      setChoice(c);
    },
    pendingTile,
    setPendingTile: (t) => {
      setDropped(false);
      setTile(t);
    },
    dropped,
    dismiss: () => setDropped(false),
    sending: (v) => {
      sent.current = v;
      if (v !== null) setDropped(false);
    },
  };
}

/** What the board and the hand offer for the choice among `legal`, and the clicks. */
export function useChoosing(
  state: ChoiceState,
  legal: LegalEntry[],
  hand: string[] | null,
  say: (text: string | null) => void,
): Choosing {
  const { choice, setChoiceRaw, pendingTile, setPendingTile } = state;
  const setChoice = (c: Choice) => {
    say(null);
    setChoiceRaw(c);
  };
  const { targets, selected } = useMemo(() => boardTargets(legal, choice, pendingTile), [legal, choice, pendingTile]);
  const playable = new Set<string>();
  if (choice.kind === "scout") {
    for (const p of pickOptions(legal, choice)) if (p.startsWith("card:")) playable.add(p.slice(5));
  } else if (choice.kind) for (const c of cardOptions(legal, choice)) playable.add(c);

  const onSlot = (location: string, slot: number) => {
    const k = `${location}:${slot}`;
    if (choice.kind === "build") setChoice(withSlot(legal, choice, location, slot));
    else if (choice.kind === "sell") setPendingTile(pendingTile === k ? null : k);
  };
  const onLink = (lid: string) => setChoice(autoChoose(legal, { ...choice, picks: [...choice.picks, `link:${lid}`] }));
  const onMerchant = (loc: string) => {
    if (!pendingTile) return;
    const opts = [...pickOptions(legal, choice)].filter((p) => p.startsWith(`sale:${pendingTile}:${loc}:`));
    if (opts.length === 1) {
      setChoice(autoChoose(legal, { ...choice, picks: [...choice.picks, opts[0]] }));
      setPendingTile(null);
    } else if (opts.length > 1) {
      // several develop choices (Gloucester): offered as buttons in the action panel
      say(t("choose.gloucester"));
    }
  };
  const onCard = (card: string) => {
    if (choice.kind === "scout") {
      const pick = `card:${card}`;
      const i = choice.picks.lastIndexOf(pick);
      const chosenCount = choice.picks.filter((p) => p === pick).length;
      const inHand = hand?.filter((h) => h === card).length ?? 0;
      // a chosen copy clicked again (no copy left to add): take it back
      if (i >= 0 && (chosenCount >= inHand || !playable.has(card)))
        setChoice({ ...choice, picks: choice.picks.filter((_, k) => k !== i) });
      else setChoice({ ...choice, picks: [...choice.picks, pick] });
    } else setChoice(autoChoose(legal, { ...choice, card: choice.card === card ? null : card }));
  };
  return { choice, setChoice, pendingTile, setPendingTile, targets, selected, playable, onSlot, onLink, onMerchant, onCard };
}
