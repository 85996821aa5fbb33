import { describe, expect, it } from "vitest";
import type { Action, Quote, View } from "../api/types";
import fixtures from "./fixtures/positions.json";
import { cardName, linkName, tileName } from "./names";
import { actionWords, marketCost, quoteFromViews, quoteLines, quoteWords } from "./words";

const views = fixtures.views as unknown as View[];
const steps = fixtures.steps as unknown as Action[];

describe("names", () => {
  it("cards, links and tiles", () => {
    expect(cardName("location:stoke_on_trent")).toBe("Stoke-on-Trent");
    expect(cardName("industry:cotton_manufacturer")).toBe("Cotton Mill / Manufacturer");
    expect(cardName("wild:industry")).toBe("Wild Industry");
    expect(linkName("birmingham--oxford")).toBe("Birmingham–Oxford");
    expect(tileName("manufacturer", 8)).toBe("Manufacturer VIII");
  });
});

describe("an action and its price in words", () => {
  it("the issue's example", () => {
    const q: Quote = {
      money: 14,
      received: 0,
      coal: [{ source: "tile", count: 1, location: "leek", slot: 1, owner: 0 }],
      iron: [],
      beer: [],
    };
    const after = { ...views[0], industries: [{ location: "stoke_on_trent", slot: 0, owner: 0, industry: "cotton", level: 2, flipped: false, resources: 0 }] } as View;
    const a: Action = { kind: "build", card: "location:stoke_on_trent", industry: "cotton", location: "stoke_on_trent", slot: 0 };
    expect(actionWords(a, 0, { quote: q, after })).toBe(
      "Red built Cotton Mill II in Stoke-on-Trent for £14 and 1 coal from their mine in Leek",
    );
  });

  it("market and merchant supplies, other players' tiles", () => {
    const q: Quote = {
      money: 10,
      received: 0,
      coal: [{ source: "market", count: 2, cost: 3 }],
      iron: [{ source: "tile", count: 1, location: "dudley", slot: 1, owner: 1 }],
      beer: [{ source: "merchant", count: 1, location: "oxford", slot: 0 }],
    };
    expect(quoteWords(q, 0)).toBe(
      "£10, 2 coal from the market (£3), 1 iron from Yellow's ironworks in Dudley and 1 beer from the Oxford merchant",
    );
    expect(quoteLines({ money: 0, received: 30, coal: [], iron: [], beer: [] }, 0)).toEqual(["Money: £0 · receive £30"]);
  });

  it("each kind of action", () => {
    expect(actionWords({ kind: "loan", card: "x" }, 1)).toBe("Yellow took a loan of £30");
    expect(actionWords({ kind: "network", card: "x", links: ["belper--derby"] }, 0, { after: views[0] })).toBe(
      "Red built a canal link Belper–Derby",
    );
    expect(actionWords({ kind: "develop", card: "x", industries: ["coal", "iron"] }, 2)).toBe("Purple developed Coal Mine and Iron Works");
    expect(actionWords({ kind: "scout", cards: ["location:leek", "industry:coal", "wild:location"] }, 3)).toBe(
      "Teal scouted, discarding Leek, Coal Mine and Wild Location",
    );
    expect(actionWords({ kind: "pass", card: "x" }, 0)).toBe("Red passed");
  });

  it("prices worked out from the views around a move", () => {
    // step 0: seat 1 builds Cotton Mill I in Birmingham for £12
    const q = quoteFromViews(views[0], views[1], 1)!;
    expect(q.money).toBe(12);
    expect(actionWords(steps[0], 1, { quote: q, before: views[0], after: views[1] })).toBe(
      "Yellow built Cotton Mill I in Birmingham for £12",
    );
    // step 1 ends the round: income is paid, so no price is claimed
    expect(quoteFromViews(views[1], views[2], 0)).toBeNull();
  });

  it("market prices", () => {
    expect(marketCost(13, 1, 14)).toBe(1);
    expect(marketCost(13, 2, 14)).toBe(3);
    expect(marketCost(8, 1, 10)).toBe(2);
    expect(marketCost(0, 2, 10)).toBe(12);
  });
});
