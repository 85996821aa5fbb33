// The language menu, on every page: the choice takes effect at once and is remembered.
import type { JSX } from "preact";
import { LANGUAGES, type Lang, setLanguage, t, useLanguage } from "./index";

export function LanguageSwitcher(): JSX.Element {
  const current = useLanguage();
  return (
    <label class="lang-switch" title={t("lang.choose")}>
      <span class="visually-hidden">{t("lang.choose")}</span>
      <select data-testid="language" aria-label={t("lang.choose")} value={current}
        onChange={(e) => void setLanguage((e.currentTarget as HTMLSelectElement).value as Lang)}>
        {LANGUAGES.map((l) => <option key={l.code} value={l.code} lang={l.code} dir={l.dir}>{l.name}</option>)}
      </select>
    </label>
  );
}
