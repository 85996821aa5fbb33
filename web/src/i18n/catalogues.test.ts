// The catalogues against the code: every key the code asks for is in every language, and no
// catalogue holds a key no code uses. Static keys are read from the source (`t("...")`); keys
// built from data (`t(\`town.${id}\`)`) are the families below, each from the list it names.
import IntlMessageFormat from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { INDUSTRIES, LOCATIONS } from "../logic/names";
import { BOT_LEVELS } from "../ui/Lobby";
import { CATALOGUES, LANGUAGES } from "./index";
import { ERROR_CODES, REFUSAL_CODES, SUBJECT_CODES } from "./refusals";

const FAMILIES: Record<string, string[]> = {
  "industry.": INDUSTRIES,
  "industry_short.": INDUSTRIES,
  "player.": ["red", "yellow", "purple", "teal"],
  "town.": LOCATIONS.map((l) => l.id),
  "buys.": ["cotton", "manufacturer", "pottery", "all", "blank"],
  "resource.": ["coal", "iron", "beer"],
  "refusal.": REFUSAL_CODES,
  "subject.": SUBJECT_CODES,
  "error.": ERROR_CODES,
  "log.tie_": ["income", "money", "shared"],
  "action.": ["build", "network", "develop", "sell", "loan", "scout", "pass"],
  "conn.": ["connecting", "reconnecting", "unreachable", "closed"], // "open" shows nothing
  "status.": ["waiting", "running", "finished", "expired", "cancelled"],
  "bot.": BOT_LEVELS,
};

// every source file of the client, as text (Vite's glob import), tests left out
const files = import.meta.glob(["../**/*.ts", "../**/*.tsx", "!../**/*.test.ts"], { query: "?raw", import: "default", eager: true });
const code = Object.values(files as Record<string, string>).join("\n");
const staticKeys = new Set([...code.matchAll(/\bt\(\s*"([^"]+)"/g)].map((m) => m[1]));
const prefixes = new Set([
  ...[...code.matchAll(/\b(?:t|has)\(\s*`([a-z_.]+)\$\{/g)].map((m) => m[1]),
  ...[...code.matchAll(/\btranslated\(\s*"([a-z_.]+)"/g)].map((m) => m[1]), // names.ts's tables
]);

describe("catalogues", () => {
  it("reads the client's sources", () => {
    expect(Object.keys(files).some((f) => f.endsWith("logic/events.ts"))).toBe(true);
    expect(staticKeys.size).toBeGreaterThan(100);
  });

  it("every key built from data belongs to a family, and every family is used", () => {
    expect([...prefixes].sort()).toEqual(Object.keys(FAMILIES).sort());
  });

  const expected = new Set([...staticKeys, ...Object.entries(FAMILIES).flatMap(([p, ids]) => ids.map((id) => p + id))]);

  for (const { code: lang, locale } of LANGUAGES) {
    it(`${lang}: no key missing, none unused, every message valid ICU`, () => {
      const keys = new Set(Object.keys(CATALOGUES[lang]));
      expect([...expected].filter((k) => !keys.has(k)), "missing").toEqual([]);
      expect([...keys].filter((k) => !expected.has(k)), "unused").toEqual([]);
      for (const [k, msg] of Object.entries(CATALOGUES[lang])) expect(() => new IntlMessageFormat(msg, locale), k).not.toThrow();
    });
  }
});
