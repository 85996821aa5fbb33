// The account page's e-mail switches (docs/REACH.md): a mail when the player's turn comes in a
// correspondence game, and a daily digest; both off until turned on, offered only where the
// server sends mail and the player has a verified address. Each change of a switch tells the
// server the page's language, as each change of language does (api/mailLanguage.ts): the mails
// are written in it.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { type EmailNotices as Switches, mail } from "../api/mailhooks";
import { lang, t, useLanguage } from "../i18n";

export function EmailNotices(): JSX.Element | null {
  const [got, setGot] = useState<Switches | null>(null);
  const [error, setError] = useState<string | null>(null);
  useLanguage(); // the words follow a change of language
  useEffect(() => {
    mail.switches().then(setGot, () => setGot(null));
  }, []);
  if (!got || !got.offered) return null;
  const change = (which: "turn" | "digest") => async (e: Event) => {
    setError(null);
    try {
      setGot(await mail.set({ [which]: (e.target as HTMLInputElement).checked, lang: lang() }));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <section class="panel" data-testid="email-notices">
      <h2>{t("email_notices.title")}</h2>
      {!got.email && <p class="muted">{t("email_notices.needs_email")}</p>}
      <label><input type="checkbox" data-testid="email-turn" checked={got.turn} disabled={!got.email}
        onChange={change("turn")} /> {t("email_notices.turn")}</label>
      <br />
      <label><input type="checkbox" data-testid="email-digest" checked={got.digest} disabled={!got.email}
        onChange={change("digest")} /> {t("email_notices.digest")}</label>
      {got.email && <p class="muted">{t("email_notices.to", { email: got.email })}</p>}
      {error && <div class="message bad">{error}</div>}
    </section>
  );
}
