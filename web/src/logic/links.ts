// Personal links. A seat link (or the host link) carries its secret in the URL fragment, which
// browsers never send to a server, so it stays out of request lines and server logs. Opening
// one in any browser stores the secret there and takes the seat back.

export type LinkRole = "seat" | "host";
/** An invite link (`#/game/{id}/invite/{secret}`) holds the game's invite secret, which an
 * unlisted game needs to be joined. */
export type AnyLinkRole = LinkRole | "invite";

export function seatLink(origin: string, path: string, game: string, role: AnyLinkRole, token: string): string {
  return `${origin}${path}#/game/${encodeURIComponent(game)}/${role}/${encodeURIComponent(token)}`;
}

/** The secret in a `#/game/{id}/{seat|host|invite}/{token}` fragment, if there is one. */
export function parseLink(hash: string): { game: string; role: AnyLinkRole; token: string } | null {
  const m = /^#\/game\/([^/?#]+)\/(seat|host|invite)\/([^/?#]+)$/.exec(hash);
  if (!m) return null;
  return { game: decodeURIComponent(m[1]), role: m[2] as AnyLinkRole, token: decodeURIComponent(m[3]) };
}
