// Plural forms, digits and money in each language (CLDR rules through ICU): Polish 1/2/5/22/25,
// Persian digits, the five languages' refusals and log lines rendered from real codes.
import { afterAll, describe, expect, it } from "vitest";
import { drawWords } from "../logic/events";
import { amountWords } from "../logic/words";
import { info, isolate, type Lang, list, money, setLanguage, signedNum, t } from "./index";
import { errorText } from "./refusals";
import { duration } from "../ui/Clocks";
import { cubeWords } from "../logic/words";

const draw = (count: number) => drawWords({ type: "draw", seat: 0, count } as never);

afterAll(() => setLanguage("en"));

describe("plural forms", () => {
  it("English: one and other", async () => {
    await setLanguage("en");
    expect([1, 2, 5].map(draw)).toEqual(["drew 1 card", "drew 2 cards", "drew 5 cards"]);
  });
  it("Polish: one, few, many (1, 2, 5, 22, 25)", async () => {
    await setLanguage("pl");
    expect([1, 2, 5, 22, 25].map(draw)).toEqual(["dobiera 1 kartę", "dobiera 2 karty", "dobiera 5 kart", "dobiera 22 karty", "dobiera 25 kart"]);
    expect([1, 2, 5].map((n) => amountWords("coal", n))).toEqual(["1 węgiel", "2 węgle", "5 węgli"]);
    expect([1, 3, 12].map((n) => amountWords("beer", n))).toEqual(["1 piwo", "3 piwa", "12 piw"]);
    expect(t("refusal.link_tiles_left", { left: 0 })).toBe("Nie masz już żetonów połączeń");
    expect(t("refusal.link_tiles_left", { left: 1 })).toBe("Został ci tylko jeden żeton połączenia");
  });
  it("Persian: one form, Persian digits", async () => {
    await setLanguage("fa");
    expect([1, 2, 5].map(draw)).toEqual(["۱ کارت برداشت", "۲ کارت برداشت", "۵ کارت برداشت"]);
    expect(money(14)).toContain("۱۴");
  });
  it("Thai and Korean: no plural forms, a counter word", async () => {
    await setLanguage("th");
    expect([1, 5].map(draw)).toEqual(["จั่ว 1 ใบ", "จั่ว 5 ใบ"]);
    await setLanguage("ko");
    expect([1, 5].map(draw)).toEqual(["카드 1장 뽑음", "카드 5장 뽑음"]);
  });
});

describe("the rules summary's numbers: the server's, as arguments", () => {
  it("every language writes the numbers it is given, in its own digits", async () => {
    for (const l of ["en", "fa", "pl", "th", "ko"] as Lang[]) {
      await setLanguage(l);
      const text = [
        t("help.turn_1", { actions: 7, first: 6, hand: 9 }),
        t("help.network_action", { canal: money(11), rail: money(12), double: money(13) }),
        t("help.loan", { money: money(41), levels: 4 }),
        t("help.scout", { cards: 5 }),
        t("help.flipping_2", { icons: 3 }),
      ].join(" ");
      for (const n of [7, 6, 9, 4, 5, 3]) expect(text, `${l}: ${n}`).toContain(new Intl.NumberFormat(info(l).locale).format(n));
      for (const m of [11, 12, 13, 41]) expect(text, `${l}: ${m}`).toContain(money(m));
    }
  });
  it("Polish: the forms of 2, 3 and 5", async () => {
    await setLanguage("pl");
    expect(t("help.turn_1", { actions: 2, first: 1, hand: 8 })).toBe(
      "Każda tura to 2 akcje (w pierwszej rundzie gry tylko 1). Każda akcja odrzuca kartę; na koniec tury dobierasz do 8 kart.");
    expect(t("help.loan", { money: "£30", levels: 3 })).toBe("Pożyczka: weź £30; twój dochód spada o 3 poziomy.");
    expect(t("help.loan", { money: "£30", levels: 5 })).toBe("Pożyczka: weź £30; twój dochód spada o 5 poziomów.");
    expect(t("help.scout", { cards: 3 })).toContain("odrzuć 3 karty,");
    expect(t("help.scout", { cards: 5 })).toContain("odrzuć 5 kart,");
  });
});

describe("Intl in each language", () => {
  it("money and lists", async () => {
    const seen: Record<string, [string, string]> = {};
    for (const l of ["en", "fa", "pl", "th", "ko"] as Lang[]) {
      await setLanguage(l);
      seen[l] = [money(-5), list(["a", "b", "c"])];
    }
    expect(seen.en).toEqual(["−£5", "a, b and c"]);
    expect(seen.pl).toEqual(["−5\u00a0£", "a, b i c"]); // a no-break space before the sign
    expect(seen.fa[1]).toContain("و");
    expect(seen.ko[0]).toContain("£5");
  });
  it("a Latin name inside a Persian sentence is isolated", async () => {
    await setLanguage("fa");
    expect(isolate("Alice")).toBe("\u2068Alice\u2069");
    await setLanguage("en");
    expect(isolate("Alice")).toBe("Alice");
  });
});

describe("a refusal in each language, from the server's reason and params", () => {
  const body = { code: "illegal", message: "You do not hold the card location:dudley", reason: "card_not_held", params: { card: "location:dudley", held: 0 } };
  const money = { code: "illegal", message: "Coal Mine I in Dudley costs £5, and you have only £4", reason: "build_money",
    params: { subject: { code: "build", params: { industry: "coal", level: 1, location: "dudley" } }, cost: 5, money: 4 } };
  it.each([
    ["en", "You do not hold the card Dudley", "Coal Mine I in Dudley costs £5, and you have only £4"],
    // a town card keeps the English name printed on the board beside it (fa, ko)
    ["fa", "کارت \u2068دادلی (\u2068Dudley\u2069)\u2069 را در دست ندارید", "معدن زغال I در \u2068دادلی\u2069"],
    ["pl", "Nie masz na ręce karty Dudley", "Kopalnia I w Dudley kosztuje 5\u00a0£, a masz tylko 4\u00a0£"],
    ["th", "คุณไม่มีการ์ด Dudley ในมือ", "เหมืองถ่านหิน I ที่ Dudley ราคา £5 แต่คุณมีเพียง £4"],
    ["ko", "손에 더들리 (Dudley) 카드가 없습니다", "더들리의 탄광 I은(는) £5이지만 가진 돈은 £4뿐입니다"],
  ] as [Lang, string, string][])("%s", async (l, held, costs) => {
    await setLanguage(l);
    expect(errorText(body)).toBe(held);
    expect(errorText(money)).toContain(costs);
  });
  it("an error without a reason: its code in the language, the server's words after", async () => {
    await setLanguage("pl");
    expect(errorText({ code: "not_your_turn", message: "It is seat 1's turn" })).toBe("To nie twoja kolej (It is seat 1's turn)");
    await setLanguage("en");
    expect(errorText({ code: "not_your_turn", message: "It is seat 1's turn" })).toBe("It is seat 1's turn");
  });
});

describe("the panels' words in each language", () => {
  it("Polish counts on the panels: 1, 2, 5", async () => {
    await setLanguage("pl");
    expect([1, 2, 5].map((n) => t("panel.cards", { n }))).toEqual(["1 karta", "2 karty", "5 kart"]);
    expect([1, 3, 5].map((n) => cubeWords("coal", n))).toEqual(["1 znacznik węgla", "3 znaczniki węgla", "5 znaczników węgla"]);
  });
  it("times on the clocks, with each language's digits and units", async () => {
    const seen: Record<string, string[]> = {};
    for (const l of ["en", "fa", "ko"] as Lang[]) {
      await setLanguage(l);
      seen[l] = [duration(65), duration(12000), duration(2 * 86400 + 4 * 3600)];
    }
    expect(seen.en).toEqual(["1:05", "3 h 20 min", "2 d 4 h"]);
    expect(seen.fa).toEqual(["۱:۰۵", "۳ ساعت ۲۰ دقیقه", "۲ روز ۴ ساعت"]);
    expect(seen.ko).toEqual(["1:05", "3시간 20분", "2일 4시간"]);
  });
  it("signs and percentages through Intl", async () => {
    await setLanguage("en");
    // a level's sign is the number helpers' (numbers.test.ts): the message takes it formatted
    expect(t("panel.income", { level: signedNum(0) })).toBe("income 0");
    expect(t("panel.income", { level: signedNum(-3) })).toBe("income −3");
    expect(errorText({ code: "illegal", message: "", reason: "loan_income_floor", params: { min_level: -10 } }))
      .toBe("A loan would take your income below −10");
    expect(t("analysis.win", { who: "Red", p: 0.426 })).toBe("Red 43%");
    await setLanguage("fa");
    expect(t("analysis.win", { who: "قرمز", p: 0.426 })).toBe("قرمز ۴۳٪");
  });
  it("a network failure is named in every language, English included", async () => {
    await setLanguage("en");
    expect(errorText({ code: "network", message: "" })).toBe("Cannot reach the server");
    await setLanguage("th");
    expect(errorText({ code: "network", message: "" })).toBe("ติดต่อเซิร์ฟเวอร์ไม่ได้");
  });
});
