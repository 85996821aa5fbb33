// The browser's player (issue 24): made on the first visit (a guest, by `POST /api/session`,
// whose secret is an HttpOnly cookie this code never sees), then every seat this browser kept
// from before players is claimed once, so the desk shows it on every device of the player.
import { api, seats } from "./client";
import type { Me } from "./types";

const CLAIMED = "brass.claimed"; // game ids whose stored seat was claimed already
let ready: Promise<Me> | null = null;

function claimedIds(): string[] {
  try {
    return JSON.parse(localStorage.getItem(CLAIMED) ?? "[]");
  } catch {
    return [];
  }
}

/** Claim the stored seat of `game` for this browser's player (once; a refusal is kept too: an
 * old link of a finished game, a seat another player took). */
export async function claimStored(game: string, token: string): Promise<void> {
  try {
    await api.claimSeat(game, token);
  } catch {
    // the link no longer works: nothing to claim
  }
  const done = claimedIds();
  if (!done.includes(game)) localStorage.setItem(CLAIMED, JSON.stringify([...done, game]));
}

/** The player, once this browser has one and its stored seats are claimed; a failure rejects
 * with its error (an `ApiError`: "network", "unavailable" while the database is out of reach, a
 * refusal), and the next call asks again. */
export function reachPlayer(): Promise<Me> {
  ready ??= (async () => {
    try {
      const me = await api.session();
      const done = new Set(claimedIds());
      const stored = Object.entries(seats.all()).filter(([game]) => !done.has(game));
      await Promise.all(stored.map(([game, s]) => claimStored(game, s.token)));
      return me;
    } catch (err) {
      ready = null; // try again next time
      throw err;
    }
  })();
  return ready;
}

/** The player, as `reachPlayer` (null: the server cannot be reached, or refuses: the page
 * works on with its seat links alone). */
export function player(): Promise<Me | null> {
  return reachPlayer().catch(() => null);
}

/** The player this browser is now, once a sign-in link made it another (an account's, or an
 * admin): what `player()` answers from now on (its role and account with it). */
export function signedIn(me: Me): void {
  ready = Promise.resolve(me);
}
