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
