// Help: the rules in a page's worth of plain words (summarised from the project's rules text,
// shared/rules/RULES.md: the server enforces the full version), opened from the game's header,
// and a short first-game guide that can be dismissed for good. Every number of the rules in it
// (the loan, the links' costs, hand size...) is the server's (`GET /api/rules`): none is here.
import { Icon } from "./icons";
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api/client";
import type { Rules } from "../api/types";
import { money, t } from "../i18n";

let asked: Promise<Rules> | null = null;
/** The server's numbers of the rules: asked for once, when the summary first opens (asked
 * again the next time if that failed). */
export function ruleNumbers(): Promise<Rules> {
  asked ??= api.rules().catch((e: unknown) => {
    asked = null;
    throw e;
  });
  return asked;
}

/** The sections of the summary, each a title and its paragraphs, in the player's language. */
function rules(n: Rules): [string, string[]][] {
  return [
    [t("help.goal"), [t("help.goal_1")]],
    [t("help.turn"), [
      t("help.turn_1", { actions: n.actions_per_turn, first: n.first_round_actions, hand: n.hand_size }),
      t("help.turn_2"),
      t("help.turn_3"),
    ]],
    [t("help.network"), [t("help.network_1")]],
    [t("help.actions"), [
      t("help.build"),
      t("help.network_action", {
        canal: money(n.link_cost.canal), rail: money(n.link_cost.rail), double: money(n.link_cost.double_rail),
      }),
      t("help.develop"),
      t("help.sell"),
      t("help.loan", { money: money(n.loan.money), levels: n.loan.levels }),
      t("help.scout", { cards: n.scout_discards }),
      t("help.pass"),
    ]],
    [t("help.resources"), [t("help.resources_1"), t("help.resources_2")]],
    [t("help.flipping"), [t("help.flipping_1"), t("help.flipping_2", { icons: n.merchant_link_icons })]],
  ];
}

export function RulesSummary({ onClose }: { onClose: () => void }): JSX.Element {
  const close = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [numbers, setNumbers] = useState<Rules | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => close.current?.focus(), []);
  // a modal dialog: Escape closes it (and only it: not also the table's step back), and Tab
  // goes round its own controls, never to the page behind it
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopImmediatePropagation();
        onClose();
        return;
      }
      const dialog = box.current;
      if (e.key !== "Tab" || !dialog) return;
      const items = [...dialog.querySelectorAll<HTMLElement>("button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])")];
      if (!items.length) return;
      const [first, last] = [items[0], items[items.length - 1]];
      const at = document.activeElement;
      if (!dialog.contains(at) || at === (e.shiftKey ? first : last)) {
        e.preventDefault();
        (e.shiftKey ? last : first).focus();
      }
    };
    addEventListener("keydown", on, true);
    return () => removeEventListener("keydown", on, true);
  }, [onClose]);
  useEffect(() => {
    let open = true;
    ruleNumbers()
      .then((n) => open && setNumbers(n))
      .catch((e: Error) => open && setError(e.message));
    return () => {
      open = false;
    };
  }, []);
  return (
    <div class="help-backdrop" onClick={onClose}>
      <div class="help panel" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="rules"
        ref={box} onClick={(e) => e.stopPropagation()}>
        <div class="details-head">
          <h2 id="help-title">{t("help.title")}</h2>
          <button type="button" class="close" ref={close} aria-label={t("help.close")} onClick={onClose}><Icon name="close" /></button>
        </div>
        {error ? <div class="message bad">{error}</div>
          : !numbers ? <p>{t("home.loading")}</p>
          : rules(numbers).map(([title, lines]) => (
            <section key={title}>
              <h3>{title}</h3>
              {lines.map((l, i) => <p key={i}>{l}</p>)}
            </section>
          ))}
      </div>
    </div>
  );
}

export function HelpButton(): JSX.Element {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    button.current?.focus(); // back where the dialog was opened from
  };
  return (
    <>
      <button type="button" class="help-button" data-testid="help" ref={button} onClick={() => setOpen(true)}>{t("help.button")}</button>
      {open && <RulesSummary onClose={close} />}
    </>
  );
}

const GUIDE_KEY = "brass.guide.done";

/** The first-game guide: four steps, dismissed for good with "Got it". */
export function Guide(): JSX.Element | null {
  const [done, setDone] = useState(() => localStorage.getItem(GUIDE_KEY) === "1");
  if (done) return null;
  return (
    <div class="guide panel" data-testid="guide" role="note" aria-label={t("help.guide_label")}>
      <div class="panel-title">{t("help.guide_title")}</div>
      <ol>
        <li>{t("help.guide_1", { build: t("action.build"), network: t("action.network") })}</li>
        <li>{t("help.guide_2")}</li>
        <li>{t("help.guide_3", { what: t("choose.what_it_does") })}</li>
        <li>{t("help.guide_4")}</li>
      </ol>
      <button type="button" data-testid="guide-done" onClick={() => { localStorage.setItem(GUIDE_KEY, "1"); setDone(true); }}>{t("help.guide_done")}</button>
    </div>
  );
}
