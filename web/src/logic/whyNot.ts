// "Why can't I?": the reason an action kind is not offered, in the player's language, from the
// engine's own rules as the view shows them (brass/engine/feasible.py): the loan's income floor,
// the scout's wild cards and hand, the link tiles and a link's price, an unsold goods tile. The
// engine's refusal codes word them (i18n/refusals.ts); where the view cannot tell which rule
// forbids it (a build, a develop), the words say so plainly; a sale's words name both things
// it needs (a merchant reached and beer), as the view cannot tell which one is missing.
import type { ActionKind, Rules, View } from "../api/types";
import { errorText } from "../i18n/refusals";
import { t } from "../i18n";

const GOODS = new Set(["cotton", "manufacturer", "pottery"]);

/** An engine refusal in words, as the server would send it. */
const refusalText = (reason: string, params: Record<string, unknown>): string =>
  errorText({ code: "illegal", message: "", reason, params });

/** Why `kind` is not offered to `seat` in `view` (`rules`: the server's numbers). */
export function whyNot(kind: ActionKind, view: View, seat: number, rules: Rules): string {
  const me = view.players[seat];
  const hand = me.hand ?? [];
  switch (kind) {
    case "loan":
      if (me.income_level - rules.loan.levels < rules.loan.min_level) {
        return refusalText("loan_income_floor", { min_level: rules.loan.min_level });
      }
      break;
    case "scout":
      if (hand.some((c) => c.startsWith("wild:"))) return refusalText("scout_holding_wild", {});
      if (view.wild_location_left === 0 || view.wild_industry_left === 0) return refusalText("scout_pile_empty", {});
      if (hand.length < rules.scout_discards) return t("why.scout_cards", { n: rules.scout_discards, held: hand.length });
      break;
    case "network": {
      if (me.links_left === 0) return refusalText("link_tiles_left", { left: 0 });
      const rail = view.era === "rail";
      const cost = rail ? rules.link_cost.rail : rules.link_cost.canal;
      if (me.money < cost) return refusalText("link_money", { kind: rail ? "rail" : "canal", cost, money: me.money });
      break;
    }
    case "sell":
      if (!view.industries.some((x) => x.owner === seat && !x.flipped && GOODS.has(x.industry))) return t("why.sell_nothing");
      return t("why.sell_unconnected"); // which of the two the view cannot tell
  }
  return t("why.none", { action: t(`action.${kind}`) });
}
