import { t } from "../i18n";
// Hash routes, so the server only has to serve index.html at `/`:
// #/ home · #/game/{id} lobby or game (play or spectate) · #/replay/{id} · #/player/{id} a
// profile · #/signin and #/account (ui/Account.tsx) · #/admin the admin page (ui/Admin.tsx)
// #/game/{id}/seat/{token} and #/game/{id}/host/{token}: a personal link (logic/links.ts): its
// secret is stored in this browser, then the address loses it. #/game/{id}/invite/{secret}: the
// invite link, whose secret joining an unlisted game needs (kept the same way).
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, type Host, SEATS_CHANGED, type SeatToken, seats } from "../api/client";
import { claimStored, player } from "../api/player";
import { parseLink } from "../logic/links";
import { AccountBar, AccountPage, LinkPage, SignInPage } from "./Account";
import { AdminPage } from "./Admin";
import { GameScreen } from "./GameScreen";
import { Home } from "./Home";
import { ProfileScreen } from "./Profile";
import { ReplayScreen } from "./Replay";
import { SharedScreen } from "./SharedScreen";

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
    void player().then(() => claimStored(link.game, link.token)); // the seat is this player's
    return null;
  } catch (err) {
    return err instanceof Error ? t("link.broken", { message: err.message }) : String(err);
  }
}

/** What this browser's player is in the game without its links here (joined or created on
 * another device: the desk links to it): the seat the server gives them by their cookie (no
 * token in this browser: ""), and whether they host it by that cookie (`api.hosting`). Null
 * and false while unknown or when they are neither. */
function usePlayerRole(id: string | null, seated: boolean, hostLink: boolean): { seat: SeatToken | null; host: boolean } {
  const [found, setFound] = useState<{ id: string; seat: SeatToken | null; host: boolean } | null>(null);
  useEffect(() => {
    if (!id || (seated && hostLink)) return;
    let stop = false;
    (async () => {
      if (!(await player())) return;
      const [st, hosting] = await Promise.all([seated ? null : api.state(id, null), hostLink ? null : api.hosting(id).catch(() => null)]);
      const seat = st?.seat ?? null;
      const name = seat === null ? "" : (await api.game(id)).seats[seat]?.name ?? "";
      if (!stop) setFound({ id, seat: seat === null ? null : { seat, token: "", name }, host: hosting?.host ?? false });
    })().catch(() => undefined);
    return () => {
      stop = true;
    };
  }, [id, seated, hostLink]);
  return found && found.id === id ? found : { seat: null, host: false };
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
    void player(); // a guest on the first visit; the seats kept here become its own
  }, []);
  const r = route(hash);
  const held = r.page === "game" && !link ? seats.get(r.id) : null;
  const hostToken = r.page === "game" && !link ? seats.hostToken(r.id) : null;
  const byPlayer = usePlayerRole(r.page === "game" && !link ? r.id : null, held !== null, hostToken !== null);
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
  // #/signin, #/signin/{token} (an e-mail link; "link" once spent), #/account
  const signin = /^#\/signin(?:\/([^/?#]+))?/.exec(hash);
  if (signin) return signin[1] && signin[1] !== "link" ? <LinkPage key={signin[1]} token={signin[1]} /> : <SignInPage />;
  if (/^#\/account\b/.test(hash)) return <AccountPage />;
  if (/^#\/admin\b/.test(hash)) return <AdminPage />;
  if (r.page === "game") {
    const mine = held ?? byPlayer.seat;
    const host: Host | null = hostToken !== null ? { token: hostToken } : byPlayer.host ? { token: null } : null;
    return (
      <>
        {linkError && <div class="message bad" data-testid="link-error">{linkError}</div>}
        {held && seats.shared(r.id).length > 0
          ? <SharedScreen key={r.id} id={r.id} held={[held, ...seats.shared(r.id)]} host={host} />
          : <GameScreen key={r.id} id={r.id} mine={mine} host={host} />}
      </>
    );
  }
  if (r.page === "replay") return <ReplayScreen key={r.id} id={r.id} />;
  if (r.page === "player") return <ProfileScreen key={r.id} id={r.id} />;
  return (
    <>
      <AccountBar />
      <Home />
    </>
  );
}
