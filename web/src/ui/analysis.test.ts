// A move's judgement in words, in every language: an unjudged move says so and is never a good
// move nor a mistake; a judged one says how sure it is and, when the bot preferred another
// move, that move with the win chance it would have given.
import { afterAll, describe, expect, it } from "vitest";
import type { MoveJudged } from "../api/types";
import { actionOnlyWords } from "../logic/events";
import { info, type Lang, LANGUAGES, setLanguage, t } from "../i18n";
import { betterMove, biggestMistakes, isJudged, judgementWords, mistakeWords } from "./Analysis";
import { touched } from "../board/touched";
import type { Analysis } from "../api/types";

const LOAN = { kind: "loan", card: "birmingham" } as unknown as MoveJudged["preferred"];
const PASS = { kind: "pass", card: "redditch" } as unknown as MoveJudged["preferred"];

function move(seq: number, over: Partial<MoveJudged>): MoveJudged {
  return { seq, seat: 0, played: PASS, preferred: PASS, judged: true, positions: 12, loss: 0,
    win: [0.3, 0.7], win_preferred: [0.3, 0.7], ...over };
}

const unjudged = move(7, { judged: false, positions: 0, loss: null, win_preferred: null });
const better = move(9, { seat: 1, preferred: LOAN, positions: 1240, loss: 3.25, win: [0.62, 0.38], win_preferred: [0.55, 0.45] });
const agrees = move(4, { positions: 1 });

afterAll(() => setLanguage("en"));

describe("a move's judgement in words", () => {
  it("English: not judged, the better move with its win chance, how sure", async () => {
    await setLanguage("en");
    expect(judgementWords(unjudged)).toEqual(["Move 7: not judged: the analysis ran out of time before it reached this move."]);
    expect(judgementWords(better)).toEqual([
      "Move 9: the bot preferred: Yellow took a loan (judged 3.3 points better, by its reckoning of the VP lead, the win chance and the position)",
      "With it Yellow would have had a 45% chance of winning (38% after the move made).",
      "Judged from 1,240 positions.",
    ]);
    expect(judgementWords(agrees)).toEqual(["Move 4: the bot agrees with this move.", "Judged from 1 position."]);
  });
  it("names the players as the log does, by their seat names", async () => {
    await setLanguage("en");
    expect(judgementWords(better, ["Ada", "Brindley"]).slice(0, 2)).toEqual([
      "Move 9: the bot preferred: Brindley took a loan (judged 3.3 points better, by its reckoning of the VP lead, the win chance and the position)",
      "With it Brindley would have had a 45% chance of winning (38% after the move made).",
    ]);
  });

  it("an analysis stored before judgements said how sure they are shows what it has", async () => {
    await setLanguage("en");
    expect(judgementWords(move(3, { positions: null, loss: 2, preferred: LOAN, win_preferred: null }))).toEqual([
      "Move 3: the bot preferred: Red took a loan (judged 2.0 points better, by its reckoning of the VP lead, the win chance and the position)"]);
    expect(judgementWords(move(3, { positions: undefined }))).toEqual(["Move 3: the bot agrees with this move."]);
  });

  it("a move with loss null is not judged, whatever its flag says", async () => {
    await setLanguage("en");
    expect(isJudged(move(5, { loss: null }))).toBe(false);
    expect(judgementWords(move(5, { loss: null }))[0]).toContain("not judged");
  });

  for (const { code } of LANGUAGES) {
    it(`${code}: every judgement in the language's own words and digits`, async () => {
      await setLanguage(code as Lang);
      const num = (n: number) => new Intl.NumberFormat(info(code as Lang).locale).format(n);
      const pct = (p: number) => new Intl.NumberFormat(info(code as Lang).locale, { style: "percent" }).format(p);
      expect(judgementWords(unjudged)).toEqual([t("analysis.unjudged", { n: 7 })]);
      expect(judgementWords(unjudged)[0]).not.toBe(t("analysis.agrees", { n: 7 }));
      expect(judgementWords(unjudged)[0]).toContain(num(7));
      const [preferred, chance, sure] = judgementWords(better);
      expect(preferred).toContain(actionOnlyWords(LOAN, 1));
      expect(chance).toContain(t("player.yellow"));
      expect(chance).toContain(pct(0.45));
      expect(chance).toContain(pct(0.38));
      expect(sure).toContain(num(1240));
      for (const line of [...judgementWords(unjudged), ...judgementWords(better), ...judgementWords(agrees)]) {
        expect(line, `${code}: an English word left`).not.toMatch(code === "en" ? /$^/ : /\b(Move|judged|positions?|chance)\b/);
      }
    });
  }

  it("Polish: the forms of 1, 2, 5 and 22 positions", async () => {
    await setLanguage("pl");
    const sure = (positions: number) => judgementWords(move(1, { positions }))[1];
    expect([1, 2, 5, 22].map(sure)).toEqual([
      "Bot ocenił ten ruch, badając 1 pozycję.",
      "Bot ocenił ten ruch, badając 2 pozycje.",
      "Bot ocenił ten ruch, badając 5 pozycji.",
      "Bot ocenił ten ruch, badając 22 pozycje.",
    ]);
  });
});

describe("the biggest mistakes", () => {
  it("are the judged moves that lost the most, worst first; an unjudged move is never one", () => {
    const moves = [
      move(1, { loss: 1 }), unjudged, move(2, { loss: 0 }), better, move(3, { loss: 8 }),
      move(5, { judged: false, loss: 50 }), // a judged flag false wins over any loss
      move(6, { loss: 0.5 }), move(8, { loss: 2 }), move(10, { loss: 0.1 }),
    ];
    expect(biggestMistakes(moves).map((m) => m.seq)).toEqual([3, 9, 8, 1, 6]);
    expect(biggestMistakes([unjudged, agrees])).toEqual([]);
  });

  it("say the mover's win chance with the preferred move and after the one made, not the search's points as VP", async () => {
    await setLanguage("en");
    expect(mistakeWords(better as MoveJudged & { loss: number })).toBe("move 9, Yellow: win chance 45% → 38%");
    // an analysis stored before win chances came with each move: its points, named so
    expect(mistakeWords(move(3, { loss: 51, win_preferred: null }) as MoveJudged & { loss: number }))
      .toBe("move 3, Red: −51.0 points");
  });
});

describe("the better move on the board", () => {
  const BUILD = { kind: "build", card: "location:leek", industry: "cotton", location: "leek", slot: 1 } as unknown as MoveJudged["preferred"];
  const NETWORK = { kind: "network", card: "location:leek", links: ["leek--stoke"] } as unknown as MoveJudged["preferred"];
  const done = (moves: MoveJudged[]) => ({ status: "done", done: moves.length, total: moves.length, moves }) as unknown as Analysis;

  it("is the preferred move of a judged move that lost, marked where it builds or lays links", () => {
    const analysis = done([move(1, { preferred: BUILD, loss: 4 }), move(2, { preferred: NETWORK, loss: 0.5 }),
      move(3, { preferred: BUILD, loss: 0 }), move(4, { preferred: BUILD, judged: false, loss: null, positions: 0 })]);
    expect(betterMove(analysis, 1)).toEqual(BUILD);
    expect([...touched(betterMove(analysis, 1)!).slots!]).toEqual(["leek:1"]);
    expect([...touched(betterMove(analysis, 2)!).links!]).toEqual(["leek--stoke"]);
    expect(betterMove(analysis, 3)).toBeNull(); // the bot agrees: nothing better to mark
    expect(betterMove(analysis, 4)).toBeNull(); // not judged: nothing is claimed
    expect(betterMove(analysis, 0)).toBeNull(); // the deal: no move yet
    expect(betterMove({ status: "running", done: 1, total: 4, moves: [] } as unknown as Analysis, 1)).toBeNull();
  });
});
