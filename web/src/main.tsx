import { render } from "preact";
import { followLanguage } from "./api/mailLanguage";
import { answerWorker } from "./api/noticeClicks";
import { applyDocument, useLanguage } from "./i18n";
import { LanguageSwitcher } from "./i18n/LanguageSwitcher";
import { App } from "./ui/App";
import { SiteBanner } from "./ui/SiteBanner";
import "./styles.css";
import "./i18n/i18n.css";
import "./theme-dark.css";

/** The app in the chosen language: a language change re-renders everything (`lang` and `dir`
 * on <html> first, so Persian lays out right to left). The language menu comes before the page:
 * it is the first line's end (styles.css), or the game header's. */
function Root() {
  useLanguage();
  return (
    <>
      <SiteBanner />
      <div class="lang-anchor"><LanguageSwitcher /></div>
      <App />
    </>
  );
}

applyDocument();
followLanguage();
answerWorker();
render(<Root />, document.getElementById("app")!);
