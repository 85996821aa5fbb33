// "Why can't I?" on the rules' own numbers (data/rules.json, what GET /api/rules serves).
import { describe, expect, it } from "vitest";
import rulesData from "../../../data/rules.json";
import type { Rules, View } from "../api/types";
import { whyNot } from "./whyNot";

const rules = rulesData as unknown as Rules;

function view(me: Record<string, unknown>, rest: Record<string, unknown> = {}): View {
  return {
    era: "canal", wild_location_left: 4, wild_industry_left: 4, industries: [],
    players: [{ income_level: 0, money: 17, links_left: 14, hand: ["location:leek", "industry:coal", "location:stone"], ...me }],
    ...rest,
  } as unknown as View;
}

describe("why an action is not offered", () => {
  it("a loan below the income floor, with the floor", () => {
    expect(whyNot("loan", view({ income_level: -8 }), 0, rules)).toBe("A loan would take your income below −10");
  });
  it("a scout: a wild card held, a wild pile empty, too few cards", () => {
    expect(whyNot("scout", view({ hand: ["wild:location", "location:leek", "industry:coal"] }), 0, rules))
      .toBe("You cannot scout while you hold a wild card");
    expect(whyNot("scout", view({}, { wild_industry_left: 0 }), 0, rules)).toBe("A wild card pile is empty: you cannot scout");
    expect(whyNot("scout", view({ hand: ["location:leek", "industry:coal"] }), 0, rules))
      .toBe("You need 3 cards to scout, and you hold 2 cards");
  });
  it("a network: no link tiles, or not the money for the era's link", () => {
    expect(whyNot("network", view({ links_left: 0 }), 0, rules)).toBe("You have no link tiles left");
    expect(whyNot("network", view({ money: 4 }, { era: "rail" }), 0, rules)).toBe("A railway costs £5, and you have only £4");
  });
  it("a sale with nothing to sell, or none that can sell (what a sale needs); else the rules allow none here", () => {
    expect(whyNot("sell", view({}), 0, rules)).toBe("You have no unsold cotton mill, manufacturer or pottery on the board");
    const goods = [{ owner: 0, flipped: false, industry: "pottery", location: "stone", slot: 0 }];
    expect(whyNot("sell", view({}, { industries: goods }), 0, rules)).toBe(
      "None of your unsold cotton mills, manufacturers and potteries can sell now: each needs a connection to a merchant that buys it, and the beer printed on it",
    );
    const theirs = [{ ...goods[0], owner: 1 }];
    expect(whyNot("sell", view({}, { industries: theirs }), 0, rules)).toBe("You have no unsold cotton mill, manufacturer or pottery on the board");
    expect(whyNot("build", view({}), 0, rules)).toBe("The rules allow no “Build” action in this position");
  });
});
