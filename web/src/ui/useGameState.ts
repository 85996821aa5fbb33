// The game's socket and what it brings: the state message, the connection status, the game's
// info (seat names) and the log. The log is fetched once (GET /log) when the page connects or
// resyncs, or when it misses a version; otherwise each state message's new entries (`log`) and
// taken-back entries (`undone`) keep it up to date.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, type ConnStatus, GameSocket } from "../api/client";
import { errorText } from "../i18n/refusals";
import type { GameInfo, LogEntry, StateMessage } from "../api/types";

export interface GameState {
  st: StateMessage | null;
  conn: ConnStatus;
  info: GameInfo | null;
  log: LogEntry[];
  /** the log has been fetched (until then `log` is empty whatever the game's length) */
  logReady: boolean;
  notFound: boolean;
  /** the latest error the server sent on the socket */
  error: { text: string; code: string; at: number } | null;
  /** the server refused this browser's seat token (renewed elsewhere, or the host removed the
   * seat): the socket watches, or (a refused hello) hears nothing */
  seatLost: boolean;
  socket: GameSocket | null;
}

/** The log after a state message that follows the version `held` holds; null if it does not
 * follow it (the log must be fetched). */
export function nextLog(held: { version: number; entries: LogEntry[] }, m: StateMessage): LogEntry[] | null {
  if (m.version === held.version) return held.entries;
  if (m.version !== held.version + 1) return null;
  const undone = new Set(m.undone);
  const kept = held.entries.filter((e) => !undone.has(e.seq));
  const seqs = new Set(kept.map((e) => e.seq));
  return [...kept, ...m.log.filter((e) => !seqs.has(e.seq))];
}

export function useGameState(id: string, token: string | null): GameState {
  const [st, setSt] = useState<StateMessage | null>(null);
  const [conn, setConn] = useState<ConnStatus>("connecting");
  const [info, setInfo] = useState<GameInfo | null>(null);
  const [log, setLog] = useState<LogEntry[]>([]);
  const [logReady, setLogReady] = useState(false);
  const [notFound, setNotFound] = useState(false);
  const [error, setError] = useState<GameState["error"]>(null);
  const [seatLost, setSeatLost] = useState(false);
  const [socket, setSocket] = useState<GameSocket | null>(null);
  const [stamp, setStamp] = useState(0); // every state message (seats fill without a new version)
  const held = useRef({ version: -1, entries: [] as LogEntry[] });
  const latest = useRef(-1);
  const fetching = useRef(false);

  useEffect(() => {
    let live = true;
    held.current = { version: -1, entries: [] };
    setSeatLost(false);
    setLogReady(false);
    latest.current = -1;
    const fetchLog = () => {
      if (fetching.current) return;
      fetching.current = true;
      api
        .log(id)
        .then((l) => {
          fetching.current = false;
          if (!live) return;
          held.current = { version: l.version, entries: l.actions };
          setLog(l.actions);
          setLogReady(true);
          if (l.version < latest.current) fetchLog(); // a version came in meanwhile
        })
        .catch(() => {
          fetching.current = false;
        });
    };
    const s = new GameSocket(id, token, {
      onState: (m, fresh) => {
        latest.current = Math.max(latest.current, m.version);
        setSt(m);
        setStamp((k) => k + 1);
        if (m.status === "waiting") return;
        const next = fresh ? null : nextLog(held.current, m);
        if (next === null) fetchLog();
        else {
          held.current = { version: m.version, entries: next };
          setLog(next);
        }
      },
      onStatus: setConn,
      onMessage: (m) => {
        if (m.type !== "error" || !live || m.about === "chat") return; // the chat shows its own
        // a refused extend or preview of a version the game has left: nothing to show
        if (m.version != null && m.version < latest.current) return;
        if (m.code === "not_found") setNotFound(true);
        else if (m.code === "unauthorized" && token !== null) setSeatLost(true);
        else setError({ text: errorText(m), code: m.code, at: Date.now() }); // in the player's language
      },
    });
    setSocket(s);
    // a hook for the browser tests: `__brass.drop(ms)` cuts the connection for a while,
    // `__brass.resume()` ends that while now
    (window as unknown as { __brass?: unknown }).__brass = {
      drop: (ms: number) => s.drop(ms),
      resume: () => s.resume(),
    };
    return () => {
      live = false;
      s.close();
    };
  }, [id, token]);

  // seat names: while seats fill, and when the game starts or ends
  const seatsKey = st ? `${st.status}:${st.seat}:${st.status === "waiting" ? stamp : ""}` : null;
  useEffect(() => {
    if (seatsKey !== null) api.game(id).then(setInfo).catch(() => {});
  }, [id, seatsKey]);

  return { st, conn, info, log, logReady, notFound, error, seatLost, socket };
}
