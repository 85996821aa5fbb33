// Which window a clicked notice opens its game in, and whether a pushed notice needs showing at
// all (sw.ts). A window's `Client.url` is the address it loaded with: hash navigation
// (`#/game/ID`, and App.tsx's replaceState of a seat link) leaves it as it was, so a tab that
// moved on to the desk still reports the game, and one that went to the game reports `/`. The
// worker therefore asks each window what it shows (SHOWS: the page answers its location.hash,
// api/noticeClicks.ts) and tells the chosen one to open the game (OPEN: the page sets
// location.hash); it opens a new window only when the app has none. And what a notice says.

/** A pushed notice (brass/server/notices.py; docs/REACH.md), nothing hidden in it. */
export interface Notice {
  kind: string; game: string; name: string; url: string; by?: string; text?: string;
  place?: number; players?: number; // an end's result
}

/** A notice's body: what happened, in the words the page left (NoticeSwitches.tsx's
 * `noticeWords`), and its detail: a chat line after its sender's name, who nudged or offered a
 * rematch (the server's, as text), an end's place. */
export function noticeBody(notice: Notice, words: Record<string, string>): string {
  const line = notice.text === undefined ? undefined : notice.by ? `${notice.by}: ${notice.text}` : notice.text;
  const result = notice.place ? words[`ended.${notice.place}.${notice.players}`] : undefined;
  return [words[notice.kind] ?? "", line ?? notice.by ?? result ?? ""].filter(Boolean).join("\n");
}

/** The worker's question to a window (answered on the message's port with location.hash). */
export const SHOWS = "brass-shows";
/** The worker's word to a window: show `hash`. */
export const OPEN = "brass-open";

/** A window of the site: its id, the path it loaded (hash navigation keeps it) and the hash its
 * page says it shows (null: it did not answer: not our page, an older one, a frozen tab). */
export interface Shown { id: string; path: string; hash: string | null }

/** The window to show `hash` in, from `windows` in clients.matchAll's order (the most recently
 * focused first): one that shows it already, else the most recently focused that answered, else
 * the most recently focused app page (`/`); null when the app has no window. */
export function chooseWindow(windows: Shown[], hash: string): Shown | null {
  return windows.find((w) => w.hash === hash)
    ?? windows.find((w) => w.hash !== null)
    ?? windows.find((w) => w.path === "/" || w.path === "/index.html")
    ?? null;
}

/** A window as a push finds it: whether the player looks at it (visible and focused) and the
 * hash its page says it shows (null: no answer). */
export interface Looked { visible: boolean; focused: boolean; hash: string | null }

/** Whether a notice about `hash` (a game) goes without a notification: a window the player is
 * looking at shows that game, whose page has the news over its socket already. A push can race
 * that socket (the player who fills a game is told it started while its page greets the game);
 * a game in a background tab, or in a window behind another program, is still told. */
export function onScreen(windows: Looked[], hash: string): boolean {
  return windows.some((w) => w.visible && w.focused && w.hash === hash);
}
