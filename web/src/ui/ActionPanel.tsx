import { t } from "../i18n";
// Choosing an action: kind, card, targets (on the board or here), the full price, Confirm.
import { Icon } from "./icons";
import { IndustryIcon } from "../board/industries";
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { ActionKind, LegalEntry, MoveEvent, PlayerView, Rules, View } from "../api/types";
import { whyNot } from "../logic/whyNot";
import { ruleNumbers } from "./Help";
import { autoChoose, cardOptions, chosen, type Choice, complete, EMPTY, kinds, parseSale, pickOptions } from "../logic/choose";
import { cardName, INDUSTRIES, INDUSTRY_NAME, locationName } from "../logic/names";
import { pickWords, quoteLines } from "../logic/words";
import { EffectPreview } from "./Preview";
import { keepAbove } from "./inView";
import { useKeepFocus } from "./useKeepFocus";
import { type Target, TargetPicker } from "./TargetPicker";

/** The actions' names as the rule text in the player's language has them. */
const KIND_LABEL: Record<ActionKind, string> = new Proxy({} as Record<ActionKind, string>, {
  get: (_target, kind) => (typeof kind === "string" ? t(`action.${kind}`) : undefined),
});

/** Why each kind of action that is not offered is not (once the server's rule numbers are
 * known): shown under the kinds, folded, and as each disabled button's title. */
function useWhyNot(entries: LegalEntry[], view: View, seat: number): Map<ActionKind, string> {
  const [rules, setRules] = useState<Rules | null>(null);
  useEffect(() => {
    let live = true;
    ruleNumbers().then((r) => live && setRules(r)).catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  const offered = kinds(entries);
  const out = new Map<ActionKind, string>();
  if (!rules || entries.length === 0) return out; // the legal moves not yet here: nothing to say
  for (const k of ALL_KINDS) if (!offered.includes(k)) out.set(k, whyNot(k, view, seat, rules));
  return out;
}

const ALL_KINDS: ActionKind[] = ["build", "network", "develop", "sell", "loan", "scout", "pass"];

export interface ActionPanelProps {
  entries: LegalEntry[];
  choice: Choice;
  setChoice: (c: Choice) => void;
  pendingTile: string | null;
  setPendingTile: (t: string | null) => void;
  seat: number;
  onConfirm: (e: LegalEntry) => void;
  busy: boolean;
  /** the engine's effect of the chosen move (null while it is asked for) */
  preview: MoveEvent | null;
  player: PlayerView;
  view: View;
  /** the board's targets of this step, as buttons */
  targets: Target[];
  town: string | null;
  setTown: (t: string | null) => void;
  /** the hand, the cards a scout may discard next and the tap on one */
  hand: string[];
  playable: Set<string>;
  onCard: (card: string) => void;
}

/** A touch screen: the prompts say "Tap", not "Click". */
export const isTouch = (): boolean => globalThis.matchMedia?.("(pointer: coarse)").matches ?? false;

export function hint(entries: LegalEntry[], c: Choice, pendingTile: string | null, touchScreen = isTouch()): string {
  if (!c.kind) return t("hint.choose_action");
  const opts = pickOptions(entries, c);
  const needCard = c.kind !== "scout" && c.card === null;
  const touch = String(touchScreen);
  switch (c.kind) {
    case "build":
      if (!c.picks.some((p) => p.startsWith("slot:"))) return t("hint.build_slot", { needCard: String(needCard), touch });
      if (!c.picks.some((p) => p.startsWith("industry:"))) return t("hint.build_industry");
      break;
    case "network":
      if (c.picks.length === 0) return t("hint.network_link", { needCard: String(needCard), touch });
      if (opts.size) return t("hint.network_second", { needCard: String(needCard), touch });
      break;
    case "develop":
      if (c.picks.length === 0) return t("hint.develop");
      if (opts.size) return t("hint.develop_second", { needCard: String(needCard) });
      break;
    case "sell":
      if (pendingTile) return t("hint.sell_merchant", { touch });
      if (c.picks.length === 0) return t("hint.sell_tile", { touch });
      if (opts.size) return t("hint.sell_more", { needCard: String(needCard), touch });
      break;
    case "scout":
      // "more" only once a card is chosen
      if (c.picks.length < 3) return t("hint.scout", { n: 3 - c.picks.length, more: String(c.picks.length > 0) });
      break;
  }
  if (needCard && complete(entries, c).length) return t("hint.card");
  return "";
}

export function ActionPanel(p: ActionPanelProps): JSX.Element {
  const { entries, choice: c } = p;
  const set = (next: Choice) => p.setChoice(autoChoose(entries, next));
  const ks = kinds(entries);
  const opts = pickOptions(entries, c);
  const entry = c.kind ? chosen(entries, c) : null;
  const cards = c.kind && c.kind !== "scout" ? cardOptions(entries, c) : [];
  const why = useWhyNot(entries, p.view, p.seat);

  const industryOpts = [...opts].filter((o) => o.startsWith("industry:"));
  const developOpts = new Set([...opts].filter((o) => o.startsWith("develop:")).map((o) => o.slice(8)));
  const developed = c.kind === "develop" ? c.picks.filter((o) => o.startsWith("develop:")).map((o) => o.slice(8)) : [];
  // a merchant's sale choices here only where it offers more than one (Gloucester's develop):
  // a single choice is the merchant's own button in the targets
  const pendingSales = p.pendingTile ? [...opts].filter((o) => o.startsWith(`sale:${p.pendingTile}:`)) : [];
  const saleDevelopOpts = pendingSales.filter((o) => pendingSales.filter((x) => parseSale(x).merchant === parseSale(o).merchant).length > 1);
  // the preview's money, once it is shown, above the Confirm bar: its total and, under it,
  // the money the player will have (a move that pays nothing: the words that say so)
  const panel = useRef<HTMLDivElement>(null);
  useKeepFocus(panel);
  useLayoutEffect(() => {
    const after = panel.current?.querySelector("[data-testid=preview-after]")
      ?? panel.current?.querySelector("[data-testid=preview-total]");
    if (after) keepAbove(after, panel.current!.querySelector(".confirm-bar"));
  }, [p.preview]);

  return (
    <div class="action-panel panel" data-testid="action-panel" ref={panel}>
      <div class="kinds">
        {ALL_KINDS.map((k) => (
          <button key={k} type="button" class={`kind${c.kind === k ? " selected" : ""}`} data-kind={k} data-offer={ks.includes(k) ? "" : undefined}
            disabled={!ks.includes(k) || p.busy} title={why.get(k)}
            onClick={() => {
              p.setPendingTile(null);
              set(c.kind === k ? EMPTY : { kind: k, card: null, picks: [] });
            }}>
            {KIND_LABEL[k]}
          </button>
        ))}
      </div>
      {!c.kind && why.size > 0 && (
        <details class="why-not" data-testid="why-not">
          <summary>{t("why.title")}</summary>
          <ul>{[...why].map(([k, text]) => <li key={k} data-why={k}><b>{KIND_LABEL[k]}</b>: {text}</li>)}</ul>
        </details>
      )}
      {c.kind && (
        <div class="choosing">
          <div class="hint" data-testid="hint">{hint(entries, c, p.pendingTile)}</div>
          {c.kind !== "scout" && (
            <div class="card-choice">
              {t("choose.card")}{" "}
              {c.card ? (
                <button type="button" class="pill selected" onClick={() => set({ ...c, card: null })} title={t("choose.another_card")}>
                  {cardName(c.card)} <Icon name="close" size={12} />
                </button>
              ) : (
                cards.map((card) => (
                  <button key={card} type="button" class="pill card-pill" data-choose-card={card} data-offer onClick={() => set({ ...c, card })}>
                    {cardName(card)}
                  </button>
                ))
              )}
            </div>
          )}
          {industryOpts.length > 1 && (
            <div class="options">
              <span class="options-label">{t("choose.industry")}</span>
              {industryOpts.map((o) => (
                <button key={o} type="button" class="pill" data-industry={o.slice(9)} data-offer onClick={() => set({ ...c, picks: [...c.picks, o] })}>
                  <IndustryIcon industry={o.slice(9)} size={16} hidden /> {INDUSTRY_NAME[o.slice(9)]}
                </button>
              ))}
            </div>
          )}
          {c.kind === "develop" && (developOpts.size > 0 || developed.length > 0) && (
            <div class="options">
              {/* an industry already chosen stays in the list, marked (and may be chosen again
                  while a second tile of it can be developed) */}
              {INDUSTRIES.filter((ind) => developOpts.has(ind) || developed.includes(ind)).map((ind) => {
                const times = developed.filter((x) => x === ind).length;
                return (
                  <button key={ind} type="button" class={`pill${times ? " selected" : ""}`} data-develop={ind}
                    data-offer={developOpts.has(ind) ? "" : undefined} disabled={!developOpts.has(ind)} aria-pressed={times > 0}
                    onClick={() => set({ ...c, picks: [...c.picks, `develop:${ind}`] })}>
                    <IndustryIcon industry={ind} size={16} hidden /> {INDUSTRY_NAME[ind]}{times ? ` ${"✓".repeat(times)}` : ""}
                  </button>
                );
              })}
            </div>
          )}
          {saleDevelopOpts.length > 0 && (
            <div class="options">
              {saleDevelopOpts.map((o) => {
                const s = parseSale(o);
                return (
                  <button key={o} type="button" class="pill" data-sale-develop={s.develop ?? ""} data-offer
                    onClick={() => { p.setPendingTile(null); set({ ...c, picks: [...c.picks, o] }); }}>
                    {t("choose.sale_to", { merchant: locationName(s.merchant), dev: s.develop ? "yes" : "no", develop: s.develop ? INDUSTRY_NAME[s.develop] : "" })}
                  </button>
                );
              })}
            </div>
          )}
          {c.kind === "scout" && (
            <div class="options" role="group" aria-label={t("choose.scout_cards")}>
              {p.hand.map((card, i) => {
                const chosenCount = c.picks.filter((x) => x === `card:${card}`).length;
                const sel = chosenCount > p.hand.slice(0, i).filter((x) => x === card).length;
                return (sel || p.playable.has(card)) && (
                  <button key={`${card}-${i}`} type="button" class={`pill card-pill${sel ? " selected" : ""}`} data-scout-card={card}
                    data-offer aria-pressed={sel} onClick={() => p.onCard(card)}>
                    {cardName(card)}
                  </button>
                );
              })}
            </div>
          )}
          <TargetPicker targets={p.targets} town={p.town} setTown={p.setTown} />
          <Picks c={c} view={p.view} />
          {(c.picks.length > 0 || c.card || p.pendingTile) && (
            <button type="button" class="link-button" onClick={() => { p.setPendingTile(null); set({ kind: c.kind, card: null, picks: [] }); }}>
              {t("choose.start_over")}
            </button>
          )}
          {entry && (
            <div class="quote" data-testid="quote">
              <div class="quote-title">{t("choose.what_it_does")}</div>
              {p.preview ? <EffectPreview effect={p.preview} player={p.player} /> : (
                <ul data-testid="quote-lines">
                  {quoteLines(entry.quote, p.seat).map((l, i) => <li key={i}>{l}</li>)}
                </ul>
              )}
            </div>
          )}
        </div>
      )}
      {c.kind && entry && (
        // the last child of the panel, so that on a phone it sticks to the sheet's bottom
        <div class="confirm-bar">
          <button type="button" class="confirm" data-testid="confirm" data-offer disabled={p.busy} onClick={() => p.onConfirm(entry)}>
            {t("choose.confirm", { action: KIND_LABEL[c.kind] })}
          </button>
        </div>
      )}
    </div>
  );
}

function Picks({ c, view }: { c: Choice; view: View }) {
  if (c.picks.length === 0) return null;
  return (
    <ul class="picks" data-testid="picks">
      {c.picks.map((p, i) => <li key={i}>{pickWords(p, view.industries)}</li>)}
    </ul>
  );
}
