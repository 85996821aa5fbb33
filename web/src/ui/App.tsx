// Hash routes, so the server only has to serve index.html at `/`:
// #/ home · #/game/{id} lobby or game (play or spectate) · #/replay/{id}
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { GameScreen } from "./GameScreen";
import { Home } from "./Home";
import { ReplayScreen } from "./Replay";

export function route(hash: string): { page: "home" } | { page: "game" | "replay"; id: string } {
  const m = /^#\/(game|replay)\/([^/?#]+)/.exec(hash);
  if (m) return { page: m[1] as "game" | "replay", id: decodeURIComponent(m[2]) };
  return { page: "home" };
}

export function App(): JSX.Element {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  const r = route(hash);
  if (r.page === "game") return <GameScreen key={r.id} id={r.id} />;
  if (r.page === "replay") return <ReplayScreen key={r.id} id={r.id} />;
  return <Home />;
}
