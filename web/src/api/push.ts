// Web Push on this browser (issue 27, docs/REACH.md): the desk's "Notify me" switch subscribes
// the browser through its service worker (sw.ts shows each notice) and gives the subscription
// to the server for the signed-in player. The notice's words are the player's language: the
// page leaves them for the worker in a cache (a worker has no catalogue of its own).
import { api } from "./client";

/** The cache and the entry where the page leaves the notices' words for the service worker. */
export const WORDS_CACHE = "brass-push";
export const WORDS_URL = "/push-words.json";

export function pushSupported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function subscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Whether this browser is subscribed and may show notices. */
export async function pushOn(): Promise<boolean> {
  if (!pushSupported() || Notification.permission !== "granted") return false;
  return (await subscription()) !== null;
}

/** The words a notice says, by its kind, in the page's language (for the worker). */
export async function leaveWords(words: Record<string, string>): Promise<void> {
  if (!("caches" in window)) return;
  const cache = await caches.open(WORDS_CACHE);
  await cache.put(WORDS_URL, new Response(JSON.stringify(words)));
}

function keyBytes(key: string): Uint8Array<ArrayBuffer> {
  const text = atob(key.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (key.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** What asking for notices came to: "on"; "blocked": the browser's settings refuse this site
 * notices (it asks the player no more: only they can change it there); "dismissed": the player
 * closed the question unanswered. */
export type PushAnswer = "on" | "blocked" | "dismissed";

/** Subscribe this browser, asking the player's permission first (throws when subscribing
 * fails: no push service, the server refused). */
export async function enablePush(words: Record<string, string>): Promise<PushAnswer> {
  if (!pushSupported()) return "dismissed";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission === "denied" ? "blocked" : "dismissed";
  const registration = await navigator.serviceWorker.ready;
  const { key } = await api.pushKey();
  const sub = (await registration.pushManager.getSubscription())
    ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
  await leaveWords(words);
  await api.pushSubscribe(sub.toJSON() as Parameters<typeof api.pushSubscribe>[0]);
  return "on";
}

/** Stop the notices on this browser. */
export async function disablePush(): Promise<void> {
  const sub = await subscription();
  if (!sub) return;
  await api.pushUnsubscribe(sub.endpoint).catch(() => undefined); // gone there already
  await sub.unsubscribe();
}
