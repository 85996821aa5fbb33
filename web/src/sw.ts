/// <reference lib="webworker" />
// The service worker (our own code; vite-plugin-pwa only injects the list of built files).
//
// What it caches: the app shell, precached at install from the build's list (index.html, the
// offline page, the JS bundle with the board data in it, the CSS, the icons), and the fonts a
// page has used (the script fonts are many subsets, 2 MB for Korean alone: each player's few are
// kept as they load, so the offline page reads well in their language). What it
// never caches: the API (/api, /docs, /openapi.json) and the websockets (/ws), which a service
// worker cannot even see; a request with no route here goes to the network untouched.
//
// Pages (navigations) go to the network first, always: an online player gets the server's page,
// never a stale copy. Only when the network fails does the worker answer with the offline page
// (offline.html, in the player's language), which reloads itself once the connection is back.
//
// Updates: a new worker installs beside the old one and WAITS (no skipWaiting, no clients.claim)
// until every tab of the site is closed; the browser then activates it and it deletes the old
// precache. An open game is never switched to another version's files under its feet, and it
// loses nothing by waiting: its next reload already fetches the new page and hashed files from
// the network (they are not in the old precache, so the old worker lets them through).
//
// Notifications (issue 27, docs/REACH.md): a "push" from the server ({kind, game, name, url},
// nothing hidden) is shown with the game's name and the words the page left in the player's
// language (api/push.ts); one notice per game and kind (its tag): a newer one replaces it.
// None is shown for the game a window the player is looking at shows (noticeClick.ts: onScreen).
// Clicking it shows the game in a window of the app (one that shows it already, else the one
// focused last: noticeClick.ts), else in a new one.
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { CacheFirst, NetworkOnly } from "workbox-strategies";
import { chooseWindow, type Notice, noticeBody, onScreen, OPEN, SHOWS } from "./noticeClick";

declare let self: ServiceWorkerGlobalScope;

const OFFLINE_PAGE = "offline.html";
const WORDS_CACHE = "brass-push"; // as api/push.ts
const WORDS_URL = "/push-words.json";


self.addEventListener("push", (event) => {
  let notice: Notice;
  try {
    notice = event.data?.json() as Notice;
  } catch {
    return;
  }
  if (!notice?.game) return;
  event.waitUntil((async () => {
    if (await lookedAt(new URL(notice.url, self.location.origin).hash)) return;
    const kept = await (await caches.open(WORDS_CACHE)).match(WORDS_URL);
    const words = (kept ? await kept.json().catch(() => ({})) : {}) as Record<string, string>;
    await self.registration.showNotification(notice.name, {
      body: noticeBody(notice, words), tag: `${notice.kind}-${notice.game}`, icon: "/pwa-192x192.png",
      data: { url: notice.url },
    });
  })());
});

/** How long a window has to say what it shows (a notice's click lends the worker a few
 * seconds in which it may focus a window). */
const ASK_MS = 500;

/** The hash `tab`'s page says it shows; null if it does not answer in time. */
function shows(tab: WindowClient): Promise<string | null> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), ASK_MS);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(typeof event.data === "string" ? event.data : null);
    };
    tab.postMessage({ type: SHOWS }, [channel.port2]);
  });
}

/** Every window of the app, with the hash each says it shows. */
async function windows(): Promise<{ tab: WindowClient; hash: string | null }[]> {
  const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const answers = await Promise.all(tabs.map(shows));
  return tabs.map((tab, i) => ({ tab, hash: answers[i] }));
}

/** Whether a window the player is looking at shows `hash` (noticeClick.ts: onScreen). */
async function lookedAt(hash: string): Promise<boolean> {
  return onScreen((await windows()).map(({ tab, hash: shown }) => ({
    visible: tab.visibilityState === "visible", focused: tab.focused, hash: shown,
  })), hash);
}

/** Show the notice's game: in a window of the app (noticeClick.ts says which), else a new one. */
async function openNotice(url: URL): Promise<void> {
  const found = await windows();
  const tabs = found.map((w) => w.tab);
  const chosen = chooseWindow(found.map(({ tab, hash }) => ({ id: tab.id, path: new URL(tab.url).pathname, hash })), url.hash);
  const tab = tabs.find((c) => c.id === chosen?.id);
  if (!chosen || !tab) {
    await self.clients.openWindow(url.href);
    return;
  }
  // focus is refused once the click's moment has passed: the game opens all the same
  const shown = await tab.focus().catch(() => tab);
  if (chosen.hash !== null) shown.postMessage({ type: OPEN, hash: url.hash });
  else await shown.navigate(url.href).catch(() => self.clients.openWindow(url.href));
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data as { url?: string } | null)?.url ?? "/", self.location.origin);
  event.waitUntil(openNotice(url));
});

const network = new NetworkOnly();
// Registered before the precache's route, so that "/" comes from the network (the precache
// route would answer it from the cache).
registerRoute(new NavigationRoute(async (options) => {
  try {
    return await network.handle(options);
  } catch {
    return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
  }
}, { denylist: [/^\/(api|ws|docs|openapi\.json)(\/|$)/] }));

precacheAndRoute(self.__WB_MANIFEST);
// fonts have hashed names (a name never changes content): the cache answers first
registerRoute(({ url }) => url.origin === self.location.origin && url.pathname.startsWith("/assets/")
  && /\.woff2?$/.test(url.pathname),
new CacheFirst({ cacheName: "brass-fonts", plugins: [new ExpirationPlugin({ maxEntries: 120 })] }));
cleanupOutdatedCaches();
