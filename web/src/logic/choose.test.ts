import { describe, expect, it } from "vitest";
import type { LegalEntry } from "../api/types";
import {
  autoChoose,
  candidates,
  cardOptions,
  chosen,
  type Choice,
  choiceDropped,
  complete,
  EMPTY,
  kinds,
  minus,
  pickOptions,
  picksOf,
  salesByTile,
  withSlot,
} from "./choose";
import fixtures from "./fixtures/positions.json";

const start = fixtures.start as unknown as LegalEntry[];
const later = fixtures.later as unknown as LegalEntry[];

describe("picks", () => {
  it("multiset difference", () => {
    expect(minus(["a", "b", "a"], ["a"])).toEqual(["b", "a"]);
    expect(minus(["a"], ["a", "a"])).toBeNull();
  });
  it("an action's picks", () => {
    expect(picksOf({ kind: "build", card: "x", industry: "coal", location: "leek", slot: 1 })).toEqual([
      "slot:leek:1",
      "industry:coal",
    ]);
    expect(picksOf({ kind: "network", card: "x", links: ["a--b", "c--d"] })).toEqual(["link:a--b", "link:c--d"]);
    expect(picksOf({ kind: "loan", card: "x" })).toEqual([]);
  });
});

describe("narrowing the legal actions", () => {
  it("offers only kinds that have a legal action", () => {
    expect(kinds(start)).toEqual(["build", "network", "develop", "loan", "scout", "pass"]);
    expect(kinds(later)).toContain("sell");
  });

  it("a build's industry chosen before its slot is kept when the slot is chosen", () => {
    // Tamworth's slots take a coal mine or a cotton mill
    let c: Choice = { ...EMPTY, kind: "build", picks: ["industry:cotton"] };
    const slots = [...pickOptions(start, c)].filter((p) => p.startsWith("slot:"));
    expect(slots).toContain("slot:tamworth:0");
    c = withSlot(start, c, "tamworth", 0);
    expect(c.picks).toEqual(["slot:tamworth:0", "industry:cotton"]);
    expect(complete(start, c).every((e) => e.action.kind === "build" && e.action.industry === "cotton")).toBe(true);
    // another slot then: the industry stays where it can be built, else it is dropped
    expect(withSlot(start, c, "tamworth", 1).picks).toEqual(["slot:tamworth:1", "industry:cotton"]);
    const brewery = withSlot(start, { ...EMPTY, kind: "build", picks: ["industry:brewery"] }, "tamworth", 0);
    expect(brewery.picks).toEqual(["slot:tamworth:0"]); // Tamworth has no brewery: choose again
    // without an industry chosen, a slot with two leaves the choice open
    expect(withSlot(start, { ...EMPTY, kind: "build" }, "tamworth", 0).picks).toEqual(["slot:tamworth:0"]);
  });

  it("a build: card, then only that card's slots, then the price", () => {
    let c: Choice = { ...EMPTY, kind: "build" };
    const cards = cardOptions(start, c);
    expect(cards).toContain("location:burton_on_trent");
    c = autoChoose(start, { ...c, card: "location:burton_on_trent" });
    const slots = [...pickOptions(start, c)].filter((p) => p.startsWith("slot:"));
    expect(slots.every((s) => s.startsWith("slot:burton_on_trent:"))).toBe(true);
    c = autoChoose(start, { ...c, picks: ["slot:burton_on_trent:1"] });
    expect(c.picks).toEqual(["slot:burton_on_trent:1", "industry:brewery"]); // the only industry there
    const e = chosen(start, c)!;
    expect(e.action).toEqual({
      kind: "build",
      card: "location:burton_on_trent",
      industry: "brewery",
      location: "burton_on_trent",
      slot: 1,
    });
    expect(e.quote.iron).toEqual([{ source: "market", count: 1, cost: 2 }]);
  });

  it("a target first: the only card is taken, two industries are offered", () => {
    const c = autoChoose(start, { kind: "build", card: null, picks: ["slot:tamworth:0"] });
    expect(c.card).toBe("location:tamworth");
    expect(chosen(start, c)).toBeNull();
    expect([...pickOptions(start, c)].sort()).toEqual(["industry:coal", "industry:cotton"]);
    const e = chosen(start, { ...c, picks: [...c.picks, "industry:cotton"] })!;
    expect(e.action).toMatchObject({ industry: "cotton", location: "tamworth", slot: 0 });
    expect(e.quote.money).toBe(12);
  });

  it("the card to discard is asked for when several cards fit", () => {
    const entries: LegalEntry[] = ["location:leek", "wild:location"].map((card) => ({
      action: { kind: "build", card, industry: "coal", location: "leek", slot: 1 },
      quote: { money: 5, received: 0, coal: [], iron: [], beer: [] },
    }));
    const c = autoChoose(entries, { kind: "build", card: null, picks: ["slot:leek:1"] });
    expect(c.picks).toEqual(["slot:leek:1", "industry:coal"]);
    expect(chosen(entries, c)).toBeNull();
    expect(cardOptions(entries, c)).toEqual(["location:leek", "wild:location"]);
    expect(chosen(entries, { ...c, card: "wild:location" })?.action).toMatchObject({ card: "wild:location" });
  });

  it("never offers a pick that leads nowhere", () => {
    const c: Choice = { kind: "network", card: null, picks: ["link:belper--derby"] };
    expect(candidates(start, c).length).toBeGreaterThan(0);
    expect(pickOptions(start, c).size).toBe(0); // canal era: one link per action
    expect(candidates(start, { ...c, picks: ["link:no--such"] })).toEqual([]);
  });

  it("a sale: tiles grouped for clicking, then the merchant", () => {
    const c: Choice = { kind: "sell", card: "location:coventry", picks: [] };
    const byTile = salesByTile(pickOptions(later, c));
    expect([...byTile.keys()]).toEqual(["birmingham:0"]);
    const pick = byTile.get("birmingham:0")![0];
    expect(pick).toBe("sale:birmingham:0:oxford:");
    const e = chosen(later, { ...c, picks: [pick] })!;
    expect(e.action.kind).toBe("sell");
    expect(e.quote.beer[0]).toMatchObject({ source: "merchant", location: "oxford" });
  });

  it("scout: three cards from the hand", () => {
    const c: Choice = { kind: "scout", card: null, picks: ["card:industry:iron"] };
    const more = [...pickOptions(start, c)];
    expect(more.every((p) => p.startsWith("card:"))).toBe(true);
    expect(chosen(start, c)).toBeNull();
  });
});

describe("two rail links listed in both orders", () => {
  const quote = { money: 15, received: 0, coal: [], iron: [], beer: [] };
  const entry = (links: string[]) =>
    ({ action: { kind: "network", card: "x", links }, quote }) as unknown as LegalEntry;
  const entries = [entry(["a--b", "c--d"]), entry(["c--d", "a--b"])];
  it("the order clicked picks the entry", () => {
    const c: Choice = { kind: "network", card: "x", picks: ["link:c--d", "link:a--b"] };
    expect(chosen(entries, c)!.action).toMatchObject({ links: ["c--d", "a--b"] });
    expect(chosen(entries, { ...c, picks: ["link:a--b", "link:c--d"] })!.action).toMatchObject({
      links: ["a--b", "c--d"],
    });
  });
});

describe("a choice dropped by a version from elsewhere", () => {
  const building: Choice = { kind: "build", card: null, picks: ["slot:leek:1"] };
  it("a half-made choice cleared by a version this device did not send", () => {
    expect(choiceDropped(building, null, 7, 8, null)).toBe(true);
    expect(choiceDropped({ kind: "sell", card: "x", picks: [] }, null, 7, 9, 3)).toBe(true);
    expect(choiceDropped(EMPTY, "leek:1", 7, 8, null)).toBe(true); // a sale's tile waiting for its merchant
  });
  it("nothing lost: no choice under way (another player's move, a choice cancelled here)", () => {
    expect(choiceDropped(EMPTY, null, 7, 8, null)).toBe(false);
  });
  it("this device's own move or undo clears the choice without a word", () => {
    expect(choiceDropped(building, null, 7, 8, 7)).toBe(false);
  });
  it("the first state and a resync of the same version clear nothing", () => {
    expect(choiceDropped(building, null, -1, 8, null)).toBe(false);
    expect(choiceDropped(building, null, 8, 8, null)).toBe(false);
  });
});
