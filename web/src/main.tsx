import { render } from "preact";
import { answerWorker } from "./api/noticeClicks";
import { applyDocument, useLanguage } from "./i18n";
import { LanguageSwitcher } from "./i18n/LanguageSwitcher";
import { App } from "./ui/App";
import { SiteBanner } from "./ui/SiteBanner";
import "./styles.css";
import "./i18n/i18n.css";
import "./theme-dark.css";

/** The app in the chosen language: a language change re-renders everything (`lang` and `dir`
 * on <html> first, so Persian lays out right to left). */
function Root() {
  useLanguage();
  return (
    <>
      <SiteBanner />
      <App />
      <LanguageSwitcher />
    </>
  );
}

applyDocument();
answerWorker();
render(<Root />, document.getElementById("app")!);
