// How long a dropped socket waits before it reconnects: doubling from 300 ms up to 5 s, each
// wait drawn between half and all of that ("equal jitter"), so that the clients a server
// restart dropped together do not all come back in the same millisecond.

export const FIRST_MS = 300;
export const MOST_MS = 5000;

/** The wait before reconnect number `tries` (0 first); `random` in [0, 1). */
export function backoff(tries: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MOST_MS, FIRST_MS * 2 ** tries);
  return ceiling / 2 + random() * (ceiling / 2);
}

/** How many times a seat's hello refused as `unauthorized` is said again before the refusal is
 * believed. Another server instance may not yet have heard of a join or a renewed link made a
 * moment ago (the server checks its database first, so this is for a stale one); a renewed or
 * removed seat is refused every time, and the player is told, after about 2 s. */
export const HELLO_RETRIES = 3;

/** The wait before saying hello again after the server refused it with error `code`
 * (`tries`: the refusals so far on this page), or null when the refusal is final.
 * `unavailable` (the server cannot reach its database) is always retried. */
export function helloRetry(code: string, tries: number, random: () => number = Math.random): number | null {
  if (code === "unavailable") return backoff(tries, random);
  if (code === "unauthorized" && tries < HELLO_RETRIES) return backoff(tries, random);
  return null;
}
