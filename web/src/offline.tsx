// The offline page's entry (offline.html): the service worker shows it when a page cannot load.
import { render } from "preact";
import { applyDocument, useLanguage } from "./i18n";
import { Offline } from "./ui/Offline";
import "./styles.css";
import "./i18n/i18n.css";

function Root() {
  useLanguage();
  return <Offline />;
}

applyDocument();
render(<Root />, document.getElementById("app")!);
