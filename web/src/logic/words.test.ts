import { describe, expect, it } from "vitest";
import type { LegalEntry, Quote, View } from "../api/types";
import { type Lang, LANGUAGES, minus, money, setLanguage, signedNum } from "../i18n";
import { hint } from "../ui/ActionPanel";
import type { Choice } from "./choose";
import fixtures from "./fixtures/positions.json";
import { cardName, linkName, tileName } from "./names";
import { merchantBuysWords, pickWords, quoteLines, quoteWords } from "./words";

describe("names", () => {
  it("cards, links and tiles", () => {
    expect(cardName("location:stoke_on_trent")).toBe("Stoke-on-Trent");
    expect(cardName("industry:cotton_manufacturer")).toBe("Cotton Mill / Manufacturer");
    expect(cardName("wild:industry")).toBe("Wild Industry");
    expect(linkName("birmingham--oxford")).toBe("Birmingham–Oxford");
    expect(tileName("manufacturer", 8)).toBe("Manufacturer VIII");
  });
});

describe("a price in words", () => {
  it("the issue's example", () => {
    const q: Quote = {
      money: 14,
      received: 0,
      coal: [{ source: "tile", count: 1, location: "leek", slot: 1, owner: 0 }],
      iron: [],
      beer: [],
    };
    expect(quoteWords(q, 0)).toBe("£14 and 1 coal from their mine in Leek");
    expect(quoteLines(q, 0)).toEqual(["Money: £14", "1 coal from their mine in Leek"]);
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
      "£10, 2 coal from the market for £3, 1 iron from Yellow's ironworks in Dudley and 1 beer from the Oxford merchant",
    );
    expect(quoteLines({ money: 0, received: 30, coal: [], iron: [], beer: [] }, 0)).toEqual(["Money: £0 · receive £30"]);
  });

  it("the first legal moves of a real game all have words", () => {
    for (const e of fixtures.start as unknown as LegalEntry[]) expect(quoteWords(e.quote, 0)).not.toBe("");
  });
});

describe("the choice so far in words", () => {
  const industries = [{ industry: "pottery", level: 1, location: "coventry", slot: 0, owner: 0, flipped: false, resources: 0 }] as View["industries"];
  it("a sale names the tile sold and its town, capitalised like the other picks", () => {
    expect(pickWords("sale:coventry:0:oxford:", industries)).toBe("Sell Pottery I (Coventry) to Oxford");
    expect(pickWords("sale:coventry:0:gloucester:cotton", industries)).toBe("Sell Pottery I (Coventry) to Gloucester, developing Cotton Mill");
    expect(pickWords("develop:manufacturer", industries)).toBe("Develop Manufacturer");
    expect(pickWords("slot:birmingham:1", industries)).toBe("Birmingham slot 2");
  });
  it("a merchant's blank tiles buy nothing and are not listed", () => {
    const merchants = [
      { location: "oxford", slot: 0, buys: "blank" }, { location: "oxford", slot: 1, buys: "pottery" },
      { location: "shrewsbury", slot: 0, buys: "cotton" },
    ] as View["merchants"];
    expect(merchantBuysWords(merchants, "oxford")).toBe("pottery");
  });
});

describe("prompts", () => {
  const build = [{ action: { kind: "build", card: "location:leek", location: "leek", slot: 0, industry: "cotton" } }] as unknown as LegalEntry[];
  it("say Tap on a touch screen, Click with a mouse", () => {
    const c: Choice = { kind: "build", card: null, picks: [] };
    expect(hint(build, c, null, false)).toMatch(/^Click a highlighted slot/);
    expect(hint(build, c, null, true)).toMatch(/^Tap a highlighted slot/);
  });
  it("scout: \"more\" only once a card is chosen", () => {
    const scout = [{ action: { kind: "scout", cards: ["location:leek", "location:stone", "location:derby"] } }] as unknown as LegalEntry[];
    expect(hint(scout, { kind: "scout", card: null, picks: [] }, null)).toBe("Choose 3 cards to discard (you take both wild cards).");
    expect(hint(scout, { kind: "scout", card: null, picks: ["card:location:leek"] }, null)).toBe("Choose 2 more cards to discard (you take both wild cards).");
  });
});

describe("signs", () => {
  it("negative money and levels take a minus sign, in every language", async () => {
    for (const { code } of LANGUAGES) {
      await setLanguage(code as Lang);
      expect(money(-5)).not.toContain("-");
      expect(money(-5)).toContain("−");
      expect(signedNum(-3)).toContain("−");
      expect(signedNum(2)).toContain("+");
    }
    await setLanguage("en");
    expect(minus("\u200e-£5")).toBe("\u200e−£5");
  });
});
