// The "no connection" screen (offline.html, served by the service worker when a page cannot be
// fetched): says so in the player's language and goes back to the game by itself once the server
// answers again (or at once, by the button).
import { useEffect } from "preact/hooks";
import { t } from "../i18n";
import "./offline.css";

/** How often the page asks whether the server answers again (ms). */
const POLL = 3000;

/** Back to the page the player asked for: the worker answered its URL with this page. */
function retry() {
  location.reload();
}

/** Reload once the server answers: "online" alone is not enough (the network may be back
 * before the server is reachable), so the page asks /ready, which no cache holds. */
async function whenBack() {
  try {
    if ((await fetch("/ready", { cache: "no-store" })).ok) retry();
  } catch {
    // still no connection: asked again on the next tick
  }
}

export function Offline() {
  useEffect(() => {
    document.title = t("offline.title");
    addEventListener("online", whenBack);
    const timer = setInterval(whenBack, POLL);
    return () => {
      removeEventListener("online", whenBack);
      clearInterval(timer);
    };
  }, []);
  return (
    <main class="offline" role="alert">
      <h1>{t("offline.title")}</h1>
      <p>{t("offline.body")}</p>
      <button type="button" onClick={retry}>{t("offline.retry")}</button>
    </main>
  );
}
