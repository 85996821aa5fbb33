// The page's side of a clicked notice (noticeClick.ts, sw.ts): the service worker asks each
// window what it shows, since `Client.url` does not follow hash navigation, and tells the one it
// chose to open the notice's game. Only the site's own worker can post to this container.
import { OPEN, SHOWS } from "../noticeClick";

/** Answer the worker's questions and open what it says, for as long as the page lives. */
export function answerWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const container = navigator.serviceWorker;
  container.addEventListener("message", (event: MessageEvent) => {
    const said = event.data as { type?: unknown; hash?: unknown } | null;
    if (said?.type === SHOWS) event.ports[0]?.postMessage(location.hash);
    else if (said?.type === OPEN && typeof said.hash === "string" && said.hash.startsWith("#/")) location.hash = said.hash;
  });
  container.startMessages(); // messages sent before the page was parsed wait until now
}
