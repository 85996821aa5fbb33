import { t } from "../i18n";
// Hash routes, so the server only has to serve index.html at `/`:
// #/ home · #/game/{id} lobby or game (play or spectate) · #/replay/{id} · #/player/{id} a profile
// #/game/{id}/seat/{token} and #/game/{id}/host/{token}: a personal link (logic/links.ts): its
// secret is stored in this browser, then the address loses it. #/game/{id}/invite/{secret}: the
// invite link, whose secret joining an unlisted game needs (kept the same way).
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, SEATS_CHANGED, seats } from "../api/client";
import { parseLink } from "../logic/links";
import { GameScreen } from "./GameScreen";
import { Home } from "./Home";
import { ProfileScreen } from "./Profile";
import { ReplayScreen } from "./Replay";

export function route(hash: string): { page: "home" } | { page: "game" | "replay" | "player"; id: string } {
  const m = /^#\/(game|replay|player)\/([^/?#]+)/.exec(hash);
  if (m) return { page: m[1] as "game" | "replay" | "player", id: decodeURIComponent(m[2]) };
  return { page: "home" };
}

/** Take the seat (or host role) a personal link holds; false if the server refuses it. */
async function claim(hash: string): Promise<string | null> {
  const link = parseLink(hash);
  if (!link) return null;
  if (link.role === "host") {
    seats.setHostToken(link.game, link.token);
    return null;
  }
  if (link.role === "invite") {
    seats.setInvite(link.game, link.token);
    return null;
  }
  try {
    const st = await api.state(link.game, link.token);
    if (st.seat === null) return t("link.no_seat");
    const info = await api.game(link.game);
    const name = info.seats[st.seat]?.name ?? "";
    seats.set(link.game, { seat: st.seat, token: link.token, name });
    return null;
  } catch (err) {
    return err instanceof Error ? t("link.broken", { message: err.message }) : String(err);
  }
}

export function App(): JSX.Element {
  const [hash, setHash] = useState(location.hash);
  const [, setHeld] = useState(0); // bumps when a seat or host token is stored: render again
  const [linkError, setLinkError] = useState<string | null>(null);
  useEffect(() => {
    const on = () => setHash(location.hash);
    const bump = () => setHeld((k) => k + 1);
    addEventListener("hashchange", on);
    addEventListener(SEATS_CHANGED, bump);
    return () => {
      removeEventListener("hashchange", on);
      removeEventListener(SEATS_CHANGED, bump);
    };
  }, []);
  const link = parseLink(hash);
  useEffect(() => {
    if (!link) return;
    claim(hash).then((error) => {
      setLinkError(error);
      // the secret leaves the address bar (and this page's history entry)
      history.replaceState(null, "", `${location.pathname}#/game/${encodeURIComponent(link.game)}`);
      setHash(location.hash);
    });
  }, [hash]);
  if (link) return <div class="page" data-testid="claiming">{t("link.claiming")}</div>;
  const r = route(hash);
  if (r.page === "game") {
    const mine = seats.get(r.id);
    return (
      <>
        {linkError && <div class="message bad" data-testid="link-error">{linkError}</div>}
        <GameScreen key={r.id} id={r.id} mine={mine} />
      </>
    );
  }
  if (r.page === "replay") return <ReplayScreen key={r.id} id={r.id} />;
  if (r.page === "player") return <ProfileScreen key={r.id} id={r.id} />;
  return <Home />;
}
