// The client's languages: i18next with ICU messages (i18next-icu: plurals and selects in the
// catalogues, per the CLDR rules of each language), the language taken from the browser,
// switchable at any time and remembered (i18next-browser-languagedetector, localStorage).
// Numbers, money and lists go through `Intl`, in the current language.
import i18next from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import ICU from "i18next-icu";
import { useEffect, useState } from "preact/hooks";
import en from "./en.json";
import fa from "./fa.json";
import ko from "./ko.json";
import pl from "./pl.json";
import th from "./th.json";

export type Lang = "en" | "fa" | "pl" | "th" | "ko";

/** Each language with its own name, its direction and the locale `Intl` formats it with. */
export const LANGUAGES: { code: Lang; name: string; dir: "ltr" | "rtl"; locale: string }[] = [
  { code: "en", name: "English", dir: "ltr", locale: "en-GB" }, // a British game: £14, "a, b and c"
  { code: "fa", name: "فارسی", dir: "rtl", locale: "fa-IR" },
  { code: "pl", name: "Polski", dir: "ltr", locale: "pl-PL" },
  { code: "th", name: "ไทย", dir: "ltr", locale: "th-TH" },
  { code: "ko", name: "한국어", dir: "ltr", locale: "ko-KR" },
];

export const CATALOGUES: Record<Lang, Record<string, string>> = { en, fa, pl, th, ko };
export const STORAGE_KEY = "brass.lang";

const instance = i18next.createInstance();
instance
  .use(ICU)
  .use(LanguageDetector)
  .init({
    resources: Object.fromEntries(Object.entries(CATALOGUES).map(([l, c]) => [l, { translation: c }])),
    supportedLngs: LANGUAGES.map((l) => l.code),
    nonExplicitSupportedLngs: true, // "pl-PL" is Polish
    load: "languageOnly",
    fallbackLng: "en",
    keySeparator: false, // keys are flat ("log.built"): one key, one line in each catalogue
    nsSeparator: false,
    returnNull: false,
    interpolation: { escapeValue: false }, // Preact escapes what it renders
    detection: {
      order: ["localStorage", "navigator"],
      lookupLocalStorage: STORAGE_KEY,
      caches: [], // only a choice made in the menu is remembered (setLanguage), not a guess
    },
    initAsync: false, // the catalogues are bundled: ready before the first render
  });

/** The current language (one of LANGUAGES). */
export function lang(): Lang {
  const l = (instance.resolvedLanguage ?? instance.language ?? "en").slice(0, 2);
  return (LANGUAGES.some((x) => x.code === l) ? l : "en") as Lang;
}

export function info(l: Lang = lang()) {
  return LANGUAGES.find((x) => x.code === l)!;
}

/** A message from the catalogue, with its ICU arguments. */
export function t(key: string, args?: Record<string, unknown>): string {
  return instance.t(key, args as never) as unknown as string;
}

/** Is there a message for `key` (for codes the server may add later)? */
export function has(key: string): boolean {
  return instance.exists(key);
}

/** Switch the language now (and remember it); the document follows (lang, dir). */
export async function setLanguage(l: Lang): Promise<void> {
  await instance.changeLanguage(l);
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, l);
  } catch {
    // storage refused (private mode): the choice holds for this page only
  }
  applyDocument();
}

/** `<html lang dir>` for the current language: Persian lays the page out right to left. */
export function applyDocument(doc: Document | undefined = globalThis.document): void {
  if (!doc) return;
  const i = info();
  doc.documentElement.lang = i.code;
  doc.documentElement.dir = i.dir;
}

/** Re-render on a language change; returns the current language. */
export function useLanguage(): Lang {
  const [l, setL] = useState<Lang>(lang());
  useEffect(() => {
    const on = () => setL(lang());
    instance.on("languageChanged", on);
    return () => instance.off("languageChanged", on);
  }, []);
  return l;
}

// -- Intl: numbers, money, lists -----------------------------------------------------------

const cache = new Map<string, Intl.NumberFormat | Intl.ListFormat>();
function fmt<T extends Intl.NumberFormat | Intl.ListFormat>(key: string, make: (locale: string) => T): T {
  const k = `${info().locale}|${key}`;
  let f = cache.get(k);
  if (!f) cache.set(k, (f = make(info().locale)));
  return f as T;
}

/** `digits` decimals, exactly, or as Intl rounds by default (up to 3). */
const decimals = (digits?: number): Intl.NumberFormatOptions =>
  digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };

/** A number in the current language's digits ("۱۴" in Persian); a negative one as `signs`
 * writes it ("−8"). `digits`: that many decimals. */
export function num(n: number, digits?: number): string {
  return signs(fmt(`num:${digits}`, (l) => new Intl.NumberFormat(l, decimals(digits))).format(n));
}

/** A moment to the minute ("7 Dec 2026, 01:27"), in the page's language. */
export function dateTime(at: string | number | Date): string {
  return new Date(at).toLocaleString(info().locale, { dateStyle: "medium", timeStyle: "short" });
}

/** A time with its time zone ("7 Dec 2026, 15:10 UTC"): for a host, whose server may keep
 * another zone than their browser. */
export function dateTimeZone(at: string | number | Date): string {
  return new Date(at).toLocaleString(info().locale, { year: "numeric", month: "short", day: "numeric",
    hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
}

/** A day ("7 Dec 2026"), in the page's language. */
export function dateOnly(at: string | number | Date): string {
  return new Date(at).toLocaleDateString(info().locale, { dateStyle: "medium" });
}

const moneyFormat = () => fmt("money", (l) => new Intl.NumberFormat(l, {
  style: "currency", currency: "GBP", currencyDisplay: "narrowSymbol", maximumFractionDigits: 0,
}));

/** Money in pounds, as the current language writes it: "£14", "−£5", "14 £". */
export function money(n: number): string {
  return signs(moneyFormat().format(n));
}

/** A formatted number's hyphen-minus as a minus sign (U+2212), wherever the locale puts it
 * (Persian leads with a direction mark): every negative sum and level reads alike. */
export function minus(s: string): string {
  return s.replace(/^(\u200e|\u200f|\u061c)?-/, "$1−");
}

/** A sign before the digits, as the locale puts it (after a direction mark in Persian). */
const SIGNED = /^[\u200e\u200f\u061c]?[+−]/;

/** The one door for a number with a sign, negative or an explicit "+": a minus sign (U+2212),
 * not a hyphen; and in a right-to-left language, the number isolated left to right (LRI … PDI,
 * the plain-text `<bdi dir="ltr">`), so that a Persian line reads "+۴" and "−۳", sign first,
 * never "۴+". num(), money() and the signed forms below all pass through it. */
export function signs(s: string): string {
  const m = minus(s);
  return info().dir === "rtl" && SIGNED.test(m) ? `\u2066${m}\u2069` : m;
}

/** A number with its sign ("+2", "−3", "0"; a rating's "+1.5" with `digits` 1), in the
 * current language's digits. */
export function signedNum(n: number, digits?: number): string {
  return signs(fmt(`signed:${digits}`, (l) => new Intl.NumberFormat(l, { signDisplay: "exceptZero", ...decimals(digits) })).format(n));
}

/** Money with its sign, paid or received: "+£5", "−£5" (zero: "£0"). */
export function signedMoney(n: number): string {
  const f = moneyFormat().format(n);
  return signs(n > 0 ? `+${f}` : f);
}

/** "a, b and c" (or "a, b or c") in the current language. */
export function list(parts: string[], type: "conjunction" | "disjunction" = "conjunction"): string {
  return fmt(`list:${type}`, (l) => new Intl.ListFormat(l, { type })).format(parts);
}

/** Text that keeps its own direction inside a sentence of the other direction (a Latin name
 * in a Persian line): first-strong isolates, the plain-text `<bdi>`. Only in a right-to-left
 * language, where it matters. */
export function isolate(s: string): string {
  return info().dir === "rtl" ? `\u2068${s}\u2069` : s;
}

export { instance as i18n };
