// Composing a Sell of several sales and a Network of two rail links through the server's
// extensions, on real engine output (fixtures/extend.json, from worst-case positions: the
// moves the server lists, and the extensions it answers for each partial action).
import { describe, expect, it } from "vitest";
import type { LegalEntry } from "../api/types";
import { withExtensions } from "../ui/useLegal";
import { actionKey, cardOptions, chosen, type Choice, nextExtension, pickOptions, picksOf } from "./choose";
import fixtures from "./fixtures/extend.json";

interface Position {
  card: string;
  legal: LegalEntry[];
  extensions: Record<string, LegalEntry[]>;
}

/** The server, as the fixture recorded it: the listed moves, and the answer to `extend`. */
function server(kind: "sell" | "network") {
  const p = (fixtures as unknown as Record<string, Position>)[kind];
  const answers = new Map(Object.entries(p.extensions).map(([k, v]) => [actionKey(JSON.parse(k)), v]));
  return { ...p, extend: (k: string) => answers.get(k) };
}

/** Ask for what the choice needs until nothing more is needed, like useLegal does. */
function settle(s: ReturnType<typeof server>, got: Map<string, LegalEntry[]>, c: Choice): LegalEntry[] {
  const asked = new Set(got.keys());
  for (;;) {
    const entries = withExtensions(s.legal, got.values());
    const a = nextExtension(entries, c, asked);
    if (!a) return entries;
    const k = actionKey(a);
    asked.add(k);
    const moves = s.extend(k);
    if (moves) got.set(k, moves);
    else return entries;
  }
}

const sales = (opts: Set<string>) => [...opts].filter((p) => p.startsWith("sale:"));

describe("a Sell composed sale by sale", () => {
  it("the listed Sells have one sale each", () => {
    const s = server("sell");
    const sells = s.legal.filter((e) => e.action.kind === "sell");
    expect(sells.length).toBeGreaterThan(10);
    expect(sells.every((e) => e.action.kind === "sell" && e.action.sales.length === 1)).toBe(true);
  });

  it("each sale picked asks for the next ones; the move confirmed is one the server listed", () => {
    const s = server("sell");
    const got = new Map<string, LegalEntry[]>();
    let c: Choice = { kind: "sell", card: s.card, picks: [] };
    for (let n = 1; n <= 3; n++) {
      let entries = settle(s, got, c);
      const next = sales(pickOptions(entries, c));
      expect(next.length).toBeGreaterThan(0);
      c = { ...c, picks: [...c.picks, next[0]] };
      entries = settle(s, got, c);
      const e = chosen(entries, c)!;
      expect(e.action.kind).toBe("sell");
      expect(picksOf(e.action)).toEqual(c.picks);
      const listed = n === 1 ? s.legal : [...got.values()].flat();
      expect(listed).toContain(e);
    }
    expect(got.size).toBe(3); // one request per sale added
  });

  it("a request is not repeated once answered", () => {
    const s = server("sell");
    const got = new Map<string, LegalEntry[]>();
    const c: Choice = { kind: "sell", card: s.card, picks: [sales(pickOptions(s.legal, { kind: "sell", card: s.card, picks: [] }))[0]] };
    const entries = settle(s, got, c);
    expect(nextExtension(entries, c, new Set(got.keys()))).toBeNull();
  });

  it("another card for a composed sale asks again from its first sale", () => {
    const s = server("sell");
    const got = new Map<string, LegalEntry[]>();
    let c: Choice = { kind: "sell", card: s.card, picks: [] };
    c = { ...c, picks: [sales(pickOptions(settle(s, got, c), c))[0]] };
    c = { ...c, picks: [...c.picks, sales(pickOptions(settle(s, got, c), c))[0]] };
    const entries = settle(s, got, c);
    const cards = cardOptions(entries, c);
    const other = cards.find((x) => x !== s.card)!;
    expect(other).toBeDefined();
    const again = nextExtension(entries, { ...c, card: other }, new Set(got.keys()))!;
    expect(again).toMatchObject({ kind: "sell", card: other });
    expect(again.kind === "sell" && again.sales.length).toBe(1);
  });
});

describe("a Network of two rail links", () => {
  it("the first link asks for the second; the pair confirmed is listed, in the order clicked", () => {
    const s = server("network");
    const got = new Map<string, LegalEntry[]>();
    let c: Choice = { kind: "network", card: s.card, picks: [] };
    const first = [...pickOptions(s.legal, c)].filter((p) => p.startsWith("link:"));
    c = { ...c, picks: [first[0]] };
    expect(chosen(settle(s, got, c), c)?.action).toMatchObject({ kind: "network", links: [first[0].slice(5)] });
    const entries = settle(s, got, c);
    const second = [...pickOptions(entries, c)].filter((p) => p.startsWith("link:"));
    expect(second.length).toBeGreaterThan(0);
    c = { ...c, picks: [...c.picks, second[0]] };
    const e = chosen(settle(s, got, c), c)!;
    expect(picksOf(e.action)).toEqual(c.picks);
    expect([...got.values()].flat()).toContain(e);
  });
});
