// Home: create a game; this server's games to join, spectate or replay.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, seats } from "../api/client";
import type { GameInfo } from "../api/types";

export function Home(): JSX.Element {
  const [games, setGames] = useState<GameInfo[] | null>(null);
  const [players, setPlayers] = useState(2);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = () => api.listGames().then(setGames).catch((e) => setError(e.message));
  useEffect(() => {
    load();
    const t = setInterval(load, 5000);
    return () => clearInterval(t);
  }, []);

  async function create(e: Event) {
    e.preventDefault();
    setBusy(true);
    try {
      const c = await api.createGame(players, name.trim() || "Brass game");
      seats.setHostToken(c.id, c.host_token);
      location.hash = `#/game/${c.id}`;
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  }

  const sorted = games ?? []; // the server lists the newest first
  return (
    <div class="page home" data-testid="home">
      <h1>Brass: Birmingham</h1>
      <form class="create panel" onSubmit={create}>
        <h2>New game</h2>
        <label>Name <input name="game-name" value={name} maxLength={40} placeholder="Brass game" onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
        <label>Players{" "}
          <select name="players" value={players} onChange={(e) => setPlayers(Number((e.target as HTMLSelectElement).value))}>
            {[2, 3, 4].map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </label>
        <button type="submit" disabled={busy} data-testid="create">Create game</button>
      </form>
      {error && <div class="message bad">{error}</div>}
      <h2>Games on this server</h2>
      {games === null ? <p>Loading…</p> : games.length === 0 ? <p class="muted">No games yet.</p> : (
        <table class="games" data-testid="games">
          <thead><tr><th>Game</th><th>Players</th><th>Status</th><th></th></tr></thead>
          <tbody>
            {sorted.map((g) => {
              const free = g.seats.filter((s) => !s.taken).length;
              const mine = seats.get(g.id);
              return (
                <tr key={g.id} data-game={g.id}>
                  <td>{g.name}</td>
                  <td>{g.seats.map((s) => s.name ?? "—").join(", ")}</td>
                  <td>{g.status}{g.status === "waiting" ? ` (${free} free)` : ""}{g.status === "running" ? ` · move ${g.version}` : ""}</td>
                  <td class="actions">
                    {g.status === "waiting" && <a href={`#/game/${g.id}`}>{mine ? "Open" : "Join"}</a>}
                    {g.status === "running" && <a href={`#/game/${g.id}`}>{mine ? "Play" : "Spectate"}</a>}
                    {g.status !== "waiting" && <a href={`#/replay/${g.id}`}>Replay</a>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
