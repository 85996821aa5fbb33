// The log in words, from real engine output (fixtures/effects.json: `make-fixtures.py`).
import { describe, expect, it } from "vitest";
import type { LogEntry } from "../api/types";
import { entryItems, entryLine, type LogItem } from "./events";
import fixtures from "./fixtures/effects.json";

const entries = fixtures as unknown as Record<string, LogEntry>;
const items = (k: string): LogItem[] => entryItems(entries[k]);
const texts = (k: string): string[] => items(k).flatMap((i) => ("text" in i ? [i.text, ...("lines" in i ? i.lines ?? [] : [])] : []));

describe("a move with its price and sources", () => {
  it("build: the tile, its price and each cube's source", () => {
    expect(entryLine(entries.build)).toBe("Red built Brewery I in Stafford for £7 in all: £5 and 1 iron from the market at £2");
  });
  it("build that sells cubes to the market says what it received", () => {
    expect(entryLine(entries.build_to_market)).toBe(
      "Yellow built Iron Works I in Birmingham for £6 in all: £5 and 1 coal from the market at £1; sold 3 iron to the market for £4",
    );
  });
  it("overbuilding names the tile replaced", () => {
    expect(entryLine(entries.build_overbuilt)).toContain("built Brewery II in Stafford, replacing their Brewery I");
  });
  it("network: two rail links, their coal and beer, and a tile flipped by it", () => {
    expect(entryLine(entries.network_double)).toBe(
      "Red built rail links Coalbrookdale–Kidderminster and Dudley–Wolverhampton for £15, using 1 coal from their mine in Wolverhampton, " +
        "1 coal from their mine in Wolverhampton and 1 beer from their brewery in Burton-on-Trent; their Coal Mine II in Wolverhampton flipped",
    );
    expect(entryLine(entries.network)).toBe("Yellow built a canal link Oxford–Redditch for £3; drew 1 card");
  });
  it("develop names the levels taken off the mat", () => {
    expect(entryLine(entries.develop)).toBe("Yellow developed Coal Mine I for £3 in all: 1 iron from the market at £3");
  });
  it("sell: the tile, the merchant, the beer and the bonus", () => {
    expect(entryLine(entries.sell_bonus)).toBe(
      "Red sold Cotton Mill I in Worcester to Oxford (bonus: 2 income spaces) using 1 beer from the Oxford merchant; drew 2 cards",
    );
  });
  it("loan, scout, pass", () => {
    expect(entryLine(entries.loan)).toBe("Red took a loan of £30; drew 2 cards");
    expect(entryLine(entries.scout)).toBe("Red scouted, discarding Brewery, Coal Mine and Iron Works; drew 2 cards");
    expect(entryLine(entries.pass)).toBe("Yellow passed");
  });
  it("an action stored before effects were has its words but no price", () => {
    expect(entryLine({ ...entries.build, effects: null })).toBe("Red built a Brewery in Stafford");
  });
});

describe("between turns", () => {
  it("end of round: income per player and the new turn order", () => {
    expect(texts("round_end")).toEqual([
      "Red built a canal link Gloucester–Worcester for £3; drew 1 card",
      "End of canal era round 1: income",
      "Red: £0 (income 0), £14 → £14",
      "Yellow: £0 (income 0), £14 → £14",
      "New turn order, least spent first: Yellow (spent £3), Red (spent £3)",
    ]);
  });
  it("a shortfall: the tiles removed and what they raised", () => {
    expect(texts("round_end_shortfall")[2]).toBe(
      "Red: pays £9 (income −9), £0 → £1; short by £9: removed Coal Mine I in Cannock (raising £2), Brewery I in Coalbrookdale (raising £2), " +
        "Brewery II in Stafford (raising £3) and Brewery II in Walsall (raising £3)",
    );
  });
  it("a shortfall with nothing left to lose says so", () => {
    const e = structuredClone(entries.round_end_shortfall);
    const end = e.effects!.find((x) => x.type === "round_end")!;
    if (end.type !== "round_end") throw new Error("no round_end");
    end.income[0] = { ...end.income[0], removed: [], vp_lost: 0 };
    const income = entryItems(e).find((i) => i.kind === "income");
    expect(income && "lines" in income && income.lines![0]).toBe("Red: pays £9 (income −9), £0 → £1; short by £9 (no tile or VP to lose)");
  });
  it("end of the canal era: the scoring table, removals and the rail deal", () => {
    const all = items("era_end_canal");
    const scores = all.find((i) => i.kind === "scores");
    expect(scores).toMatchObject({ era: "canal" });
    if (scores?.kind !== "scores") throw new Error("no scores");
    expect(scores.rows.map((r) => [r.seat, r.links, r.linkVp, r.tiles, r.tileVp, r.vp])).toEqual([
      [0, 3, 6, 3, 16, 22],
      [1, 6, 16, 1, 3, 19],
    ]);
    expect(scores.rows[0].detail).toContain("Pottery I in Coventry 10");
    expect(scores.rows[1].detail).toContain("Gloucester–Redditch 4");
    const t = texts("era_end_canal");
    expect(t).toContain("Removed from the board: 9 canal links and the level-I tiles Red's Brewery I in Stafford, Red's Brewery I in Walsall, " +
      "Yellow's Brewery I in Coalbrookdale, Red's Cotton Mill I in Worcester, Yellow's Iron Works I in Birmingham, Red's Pottery I in Coventry " +
      "and Red's Coal Mine I in Redditch");
    expect(t).toContain("Beer put back on 2 merchant tiles");
    expect(t).toContain("Rail era deal: Yellow 8 cards, Red 8 cards; 24 cards left in the deck");
  });
  it("end of the game: no income, rail scoring, the ranking", () => {
    const all = items("game_end");
    // the rail links stay on the board at the end of the game: nothing is removed
    expect(all.map((i) => i.kind)).toEqual(["move", "income", "order", "scores", "ranking"]);
    expect(texts("game_end")).toContain("End of rail era round 10: no income after the last round");
    const ranking = all[4];
    if (ranking.kind !== "ranking") throw new Error("no ranking");
    expect(ranking.rows).toEqual([
      { seat: 0, rank: 1, vp: 51, income: 10, money: 59, tieBreak: "" },
      { seat: 1, rank: 2, vp: 40, income: 2, money: 23, tieBreak: "" },
    ]);
  });
  it("the tie-break is named", () => {
    const e = structuredClone(entries.game_end);
    const end = e.effects!.find((x) => x.type === "game_end")!;
    if (end.type !== "game_end") throw new Error("no game_end");
    end.ranking[1] = { ...end.ranking[1], vp: end.ranking[0].vp, rank: 2, tie_break: "income" };
    const r = entryItems(e).find((i) => i.kind === "ranking");
    expect(r?.kind === "ranking" && r.rows[1].tieBreak).toBe("tie broken by income");
  });
});

describe("a move a bot made for a player", () => {
  it("says so, and why", () => {
    const entry = { ...entries.build, stand_in: "timeout" } as LogEntry;
    expect(entryLine(entry)).toBe(
      "Red built Brewery I in Stafford for £7 in all: £5 and 1 iron from the market at £2 (a bot played for them: out of time)",
    );
    expect(entryLine({ ...entries.build, stand_in: "resigned" } as LogEntry)).toContain("(a bot played for them: resigned)");
    expect(entryLine(entries.build)).not.toContain("bot");
  });
});

describe("players by name", () => {
  // the log names a seat's player as the page does (seatName), by colour only without a name
  const names = ["Alice", "Bob"];
  it("a move, a tile of another's, and the events between turns", () => {
    expect(entryLine(entries.loan, names)).toBe("Alice took a loan of £30; drew 2 cards");
    expect(entryLine(entries.network, names)).toBe("Bob built a canal link Oxford–Redditch for £3; drew 1 card");
    const lines = entryItems(entries.round_end, names).flatMap((i) => ("text" in i ? [i.text, ...("lines" in i ? i.lines ?? [] : [])] : []));
    expect(lines).toContain("Alice: £0 (income 0), £14 → £14");
    expect(lines.join("\n")).not.toMatch(/\b(Red|Yellow)\b/);
  });
  it("a seat with no name keeps its colour", () => {
    expect(entryLine(entries.loan, [null, "Bob"])).toBe("Red took a loan of £30; drew 2 cards");
  });
});
