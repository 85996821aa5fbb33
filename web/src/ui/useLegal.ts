// The legal moves of the seat to move: those the state message lists (a Sell of one sale, a
// Network of one link), plus the extensions asked for the partial action being chosen (one more
// sale, the second rail link), all for the current version only.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { GameSocket } from "../api/client";
import type { LegalEntry, StateMessage } from "../api/types";
import { actionKey, type Choice, nextExtension } from "../logic/choose";

/** The moves listed for this version, then every extension received, each move once. */
export function withExtensions(listed: LegalEntry[], extensions: Iterable<LegalEntry[]>): LegalEntry[] {
  const seen = new Set(listed.map((e) => actionKey(e.action)));
  const out = [...listed];
  for (const moves of extensions)
    for (const m of moves) {
      const k = actionKey(m.action);
      if (!seen.has(k)) {
        seen.add(k);
        out.push(m);
      }
    }
  return out;
}

export function useLegal(st: StateMessage | null, socket: GameSocket | null, choice: Choice): LegalEntry[] {
  const version = st?.version ?? -1;
  const listed = st?.legal ?? null;
  // extensions by the key of the partial action, for `version`
  const [ext, setExt] = useState<{ version: number; byKey: Map<string, LegalEntry[]> }>({ version: -1, byKey: new Map() });
  // asked anew for each state message (a reconnect's answers to earlier requests are lost)
  const asked = useRef<{ st: StateMessage | null; version: number; keys: Set<string> }>({ st: null, version: -1, keys: new Set() });

  useEffect(() => {
    if (!socket) return;
    return socket.subscribe((m) => {
      if (m.type !== "extensions") return;
      setExt((old) => {
        if (m.version !== asked.current.version) return old;
        const byKey = new Map(old.version === m.version ? old.byKey : []);
        byKey.set(actionKey(m.action), m.moves);
        return { version: m.version, byKey };
      });
    });
  }, [socket]);

  const entries = useMemo(
    () => (listed ? withExtensions(listed, ext.version === version ? ext.byKey.values() : []) : []),
    [listed, ext, version],
  );

  useEffect(() => {
    if (!socket || !listed) return;
    if (asked.current.st !== st) asked.current = { st, version, keys: new Set(ext.version === version ? ext.byKey.keys() : []) };
    const a = nextExtension(entries, choice, asked.current.keys);
    if (a && socket.extend(a, version)) asked.current.keys.add(actionKey(a));
  }, [socket, st, entries, choice, version]);

  return entries;
}
