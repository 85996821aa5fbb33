// The mails follow the language the player reads the site in (docs/REACH.md): each change of
// language, on whatever page, is told to the server once, for a player with an account (a guest
// gets no mail). It used to be told only on a visit to the account page, so a player who switched
// on the desk or at the table kept getting mails in the old language.
import { i18n, lang } from "../i18n";
import { mail } from "./mailhooks";
import { player } from "./player";

/** Tell the server each new language from now on (called once, as the client starts). */
export function followLanguage(): void {
  let last = lang();
  i18n.on("languageChanged", () => {
    const now = lang();
    if (now === last) return;
    last = now;
    void player().then((me) => (me?.account ? mail.set({ lang: now }) : null)).catch(() => undefined);
  });
}
