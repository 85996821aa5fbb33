// Personal links. A seat link (or the host link) carries its secret in the URL fragment, which
// browsers never send to a server, so it stays out of request lines and server logs. Opening
// one in any browser stores the secret there and takes the seat back.

export type LinkRole = "seat" | "host";

export function seatLink(origin: string, path: string, game: string, role: LinkRole, token: string): string {
  return `${origin}${path}#/game/${encodeURIComponent(game)}/${role}/${encodeURIComponent(token)}`;
}

/** The secret in a `#/game/{id}/{seat|host}/{token}` fragment, if there is one. */
export function parseLink(hash: string): { game: string; role: LinkRole; token: string } | null {
  const m = /^#\/game\/([^/?#]+)\/(seat|host)\/([^/?#]+)$/.exec(hash);
  if (!m) return null;
  return { game: decodeURIComponent(m[1]), role: m[2] as LinkRole, token: decodeURIComponent(m[3]) };
}
