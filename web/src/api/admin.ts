// The admin page's calls (`/api/admin/...`, issue 25) and the banner every page shows. The
// player's cookie says who asks: the server answers `forbidden` to anyone not an admin.
import { call } from "./client";
import type { AdminChat, AdminGame, AdminGames, AdminMuted, Backup, Banner, ChatMutes, Figures, InstanceList, Policy, PolicySet } from "./types";

/** The games list's filters, as the server takes them (unset: any). */
export interface GameQuery {
  status?: string;
  name?: string;
  since?: string;
  humans?: string;
  bots?: string;
  offset?: number;
  limit?: number;
}

function query(q: object): string {
  const kept = Object.entries(q).filter(([, v]) => v !== undefined && v !== "" && v !== null);
  return kept.length ? `?${new URLSearchParams(kept.map(([k, v]) => [k, String(v)]))}` : "";
}

const game = (id: string) => `/api/admin/games/${encodeURIComponent(id)}`;

export const admin = {
  games: (q: GameQuery) => call<AdminGames>("GET", `/api/admin/games${query(q)}`),
  end: (id: string) => call<AdminGame>("POST", `${game(id)}/end`, {}),
  remove: (id: string) => call<null>("DELETE", game(id)),
  chat: (before: number | null, limit = 50) => call<AdminChat>("GET", `/api/admin/chat${query({ before, limit })}`),
  deleteLine: (gameId: string, line: number) => call<null>("DELETE", `${game(gameId)}/chat/messages/${line}`),
  muted: (offset: number, limit = 50) => call<AdminMuted>("GET", `/api/admin/chat/muted${query({ offset, limit })}`),
  mute: (gameId: string, seat: number | null, muted: boolean) => call<ChatMutes>("POST", `${game(gameId)}/chat/mute`, { seat, muted }),
  policy: () => call<{ policy: Policy }>("GET", "/api/admin/policy"),
  setPolicy: (policy: Policy) => call<PolicySet>("PUT", "/api/admin/policy", { policy }),
  setBanner: (text: string | null) => call<Banner>("PUT", "/api/admin/banner", { text }),
  backup: () => call<Backup>("GET", "/api/admin/backup"),
  figures: () => call<Figures>("GET", "/api/admin/figures"),
  instances: () => call<InstanceList>("GET", "/api/admin/instances"),
};

/** The banner for every page (anyone may read it). */
export const banner = () => call<Banner>("GET", "/api/banner");
