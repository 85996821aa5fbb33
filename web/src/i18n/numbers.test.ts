// Numbers with a sign, as players read them: a minus sign (U+2212) rather than a hyphen, an
// explicit "+" where the sign is the point, and in Persian (right to left) the number isolated
// left to right, so the sign stands before the digits ("+۴", never "۴+").
import { afterAll, describe, expect, it } from "vitest";
import { type Lang, LANGUAGES, money, num, setLanguage, signedMoney, signedNum, signs } from "./index";

const LRI = "\u2066";
const PDI = "\u2069";
const LRM = "\u200e";

describe("signed numbers", () => {
  afterAll(() => setLanguage("en"));

  it("in English: a minus sign, a plus where asked, zero bare", async () => {
    await setLanguage("en");
    expect(signedNum(-3)).toBe("−3");
    expect(signedNum(4)).toBe("+4");
    expect(signedNum(0)).toBe("0");
    expect(signedNum(1.25, 1)).toBe("+1.3");
    expect(signedNum(-0.04, 1)).toBe("0.0"); // rounds to zero: no sign
    expect(num(-8)).toBe("−8");
    expect(num(8)).toBe("8");
    expect(num(12.5, 1)).toBe("12.5");
    expect(money(-5)).toBe("−£5");
    expect(signedMoney(5)).toBe("+£5");
    expect(signedMoney(-5)).toBe("−£5");
    expect(signedMoney(0)).toBe("£0");
  });

  it("in Persian: Persian digits, isolated left to right with the sign first", async () => {
    await setLanguage("fa");
    expect(signedNum(-3)).toBe(`${LRI}${LRM}−۳${PDI}`);
    expect(signedNum(4)).toBe(`${LRI}${LRM}+۴${PDI}`);
    expect(signedNum(0)).toBe("۰"); // no sign, nothing to isolate
    expect(signedNum(1.5, 1)).toBe(`${LRI}${LRM}+۱٫۵${PDI}`);
    expect(num(-8)).toBe(`${LRI}${LRM}−۸${PDI}`);
    expect(num(14)).toBe("۱۴");
    expect(money(-5)).toBe(`${LRI}${LRM}−${LRM}£۵${PDI}`);
    expect(signedMoney(5)).toBe(`${LRI}+${LRM}£۵${PDI}`);
    expect(money(5)).toBe(`${LRM}£۵`);
  });

  it("never a hyphen for a negative number, in any language", async () => {
    for (const { code, dir } of LANGUAGES) {
      await setLanguage(code as Lang);
      for (const s of [signedNum(-3), num(-3), money(-3), signedMoney(-3), signedNum(-2.5, 1)]) {
        expect(s, `${code}: ${s}`).not.toMatch(/-/);
        expect(s, `${code}: ${s}`).toMatch(/−/);
        expect(s.startsWith(LRI), `${code}: ${s}`).toBe(dir === "rtl");
      }
      expect(signedNum(2)).toMatch(/\+/);
    }
  });

  it("a sign the locale put after a direction mark is still found", async () => {
    await setLanguage("en");
    expect(signs(`${LRM}-£5`)).toBe(`${LRM}−£5`);
    expect(signs("£5")).toBe("£5");
    await setLanguage("fa");
    expect(signs(`${LRM}-£5`)).toBe(`${LRI}${LRM}−£5${PDI}`);
    expect(signs("۵")).toBe("۵");
  });
});
