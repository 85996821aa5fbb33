// HTTP calls and the game websocket (with reconnect and full resync).
import { errorText } from "../i18n/refusals";
import { backoff, helloRetry } from "../logic/backoff";
import type {
  Action,
  ClientMessage,
  Analysis,
  BotLevel,
  ChatHistory,
  ChatMutes,
  ClockChoice,
  Created,
  Desk,
  ErrorCode,
  Explored,
  GameInfo,
  GameList,
  GameLog,
  GameRatings,
  Hosting,
  InviteValid,
  Joined,
  Me,
  NoticeSwitches,
  NudgeInfo,
  Profile,
  PushSubscriptionIn,
  RematchInfo,
  ClockPause,
  Vacation,
  Vacations,
  ReplayFrame,
  Rules,
  SetNoticeSwitches,
  StateMessage,
  WsMessage,
} from "./types";

/** A refusal from the server; `message` is in the player's language (an engine refusal is
 * rendered from its `reason` and `params`), `english` is the server's own words. `code` is the
 * server's, or the client's own: "network" (no answer), "error" (an answer with no code). */
export class ApiError extends Error {
  public english: string;
  constructor(public code: ErrorCode | "network" | "error", message: string, public status = 0, public reason: string | null = null,
    public params: Record<string, unknown> | null = null) {
    super(errorText({ code, message, reason, params }));
    this.english = message;
  }
}

/** One API call (the device cookie goes with it: same origin); a refusal throws `ApiError`. */
export async function call<T>(method: string, path: string, body?: unknown, token?: string | null): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  return answer<T>(await reach(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
}

async function reach(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch {
    throw new ApiError("network", ""); // no server words: the client's own (error.network)
  }
}

/** A response's body, or its refusal thrown as `ApiError`. */
async function answer<T>(res: Response): Promise<T> {
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok)
    throw new ApiError(data?.code ?? "error", data?.message ?? res.statusText, res.status, data?.reason ?? null, data?.params ?? null);
  return data as T;
}

/** A desk page as read, and when (its `time_left`s count down from then). */
export type DeskRead = { desk: Desk; received: number; tag: string | null };
const desks = new Map<string, DeskRead>(); // the last read of each page, by its path

/** A desk page, revalidated with the ETag of this page's last read: unchanged (304), that read
 * is the answer, with the time it was received. Not the browser's cache: a page it revalidates
 * comes back with its old body and no sign of its age, so a time left counted from "now" stood
 * still at the first answer's value (the tag leaves the time left out: the client counts). */
async function readDesk(path: string): Promise<DeskRead> {
  const last = desks.get(path);
  const headers: Record<string, string> = last?.tag ? { "If-None-Match": last.tag } : {};
  const res = await reach(path, { headers, cache: "no-store" });
  if (res.status === 304 && last) return last;
  const read = { desk: await answer<Desk>(res), received: Date.now(), tag: res.headers.get("ETag") };
  desks.set(path, read);
  return read;
}

export const api = {
  /** A page of the listing (`cursor`: the previous page's `next`), or with `changedAfter` (a
   * page's `changes`) only the listed games that changed since. */
  listGames: (opts: { cursor?: string; changedAfter?: string } = {}) => {
    const q = new URLSearchParams({ limit: "50" });
    if (opts.cursor) q.set("cursor", opts.cursor);
    if (opts.changedAfter) q.set("changed_after", opts.changedAfter);
    return call<GameList>("GET", `/api/games?${q}`);
  },
  createGame: (players: number, name: string, listed: boolean,
    options: { clock?: ClockChoice; shared_screen?: boolean; invite_code?: string } = {}) =>
    call<Created>("POST", "/api/games", { players, name, listed, ...options }),
  /** Whether an invite link opened still lets its holder join (the host may have renewed it). */
  checkInvite: (id: string, invite: string) =>
    call<InviteValid>("POST", `/api/games/${id}/invite/check`, { invite }),
  renewInvite: (id: string, host: Host) =>
    call<{ invite: string }>("POST", `/api/games/${id}/invite`, {}, host.token),
  /** Resign at whatever version the game is at (`expected_version` null): a resign confirmed
   * does not depend on the board, and a bot's move a moment before must not refuse it. */
  resign: (id: string, token: string) =>
    call<{ version: number }>("POST", `/api/games/${id}/resign`, { expected_version: null }, token),
  takeOver: (id: string, token: string) => call<{ version: number }>("POST", `/api/games/${id}/takeover`, {}, token),
  handOver: (id: string, token: string, seat: number, expected_version: number) =>
    call<{ version: number }>("POST", `/api/games/${id}/handover`, { seat, expected_version }, token),
  setListed: (id: string, host: Host, listed: boolean) =>
    call<GameInfo>("POST", `/api/games/${id}/listed`, { listed }, host.token),
  removeSeat: (id: string, host: Host, seat: number) =>
    call<GameInfo>("DELETE", `/api/games/${id}/seats/${seat}`, undefined, host.token),
  cancel: (id: string, host: Host) => call<GameInfo>("POST", `/api/games/${id}/cancel`, {}, host.token),
  renew: (id: string, token: string) =>
    call<{ role: "seat" | "host"; seat: number | null; token: string }>("POST", `/api/games/${id}/renew`, {}, token),
  game: (id: string) => call<GameInfo>("GET", `/api/games/${id}`),
  /** Whether this browser's player hosts the game by their cookie (no host link here). */
  hosting: (id: string) => call<Hosting>("GET", `/api/games/${id}/hosting`),
  join: (id: string, name: string, invite: string | null) =>
    call<Joined>("POST", `/api/games/${id}/join`, { name, invite, browser: browserId() }),
  addBot: (id: string, host: Host, level: BotLevel = "easy") =>
    call<{ seat: number }>("POST", `/api/games/${id}/bots`, { level }, host.token),
  state: (id: string, token: string | null) => call<StateMessage>("GET", `/api/games/${id}/state`, undefined, token),
  act: (id: string, token: string, action: Action, expected_version: number, action_id: string) =>
    call<{ version: number }>("POST", `/api/games/${id}/actions`, { action, expected_version, action_id }, token),
  undo: (id: string, token: string, expected_version: number) =>
    call<{ version: number }>("POST", `/api/games/${id}/undo`, { expected_version }, token),
  log: (id: string) => call<GameLog>("GET", `/api/games/${id}/log`),
  /** A page of the chat, oldest first (`before`: the previous page's `next`). */
  chat: (id: string, before: number | null = null) =>
    call<ChatHistory>("GET", `/api/games/${id}/chat${before === null ? "" : `?before=${before}`}`),
  deleteChat: (id: string, host: Host, message: number) =>
    call<null>("DELETE", `/api/games/${id}/chat/messages/${message}`, undefined, host.token),
  muteChat: (id: string, host: Host, seat: number | null, muted: boolean) =>
    call<ChatMutes>("POST", `/api/games/${id}/chat/mute`, { seat, muted }, host.token),
  analysis: (id: string) => call<Analysis>("GET", `/api/games/${id}/analysis`),
  analyse: (id: string, token: string) => call<Analysis>("POST", `/api/games/${id}/analysis`, undefined, token),
  /** The analysis board: where `line` leads from the position after `frame` moves of a
   * finished game (nothing is stored). */
  explore: (id: string, frame: number, line: Action[]) =>
    call<Explored>("POST", `/api/games/${id}/explore`, { frame, line }),
  /** The fixed numbers of the rules, as the server's engine plays them. */
  rules: () => call<Rules>("GET", "/api/rules"),
  /** This browser's player: the one its cookie names, else a new guest (and its cookie). */
  session: () => call<Me>("POST", "/api/session", {}),
  /** A page of the player's desk, revalidated with its ETag (`readDesk`). */
  desk: (offset = 0, limit = 20) =>
    readDesk(`/api/desk?${new URLSearchParams({ offset: String(offset), limit: String(limit) })}`),
  /** The server's VAPID public key (the applicationServerKey of a push subscription). */
  pushKey: () => call<{ key: string }>("GET", "/api/push/key"),
  /** This browser's push subscription is the player's: their turns are pushed to it. */
  pushSubscribe: (sub: PushSubscriptionIn) => call<null>("POST", "/api/push/subscription", sub),
  pushUnsubscribe: (endpoint: string) => call<null>("DELETE", "/api/push/subscription", { endpoint }),
  /** The signed-in player's vacations to come and the days left (docs/REACH.md). */
  vacations: () => call<Vacations>("GET", "/api/me/vacations"),
  takeVacation: (start: string, days: number) => call<Vacation>("POST", "/api/me/vacations", { start, days }),
  cancelVacation: (id: number) => call<null>("DELETE", `/api/me/vacations/${id}`),
  /** The mover's clock with their vacations taken out (a correspondence game). */
  clockPause: (id: string) => call<ClockPause>("GET", `/api/games/${id}/pause`),
  /** A seat link opened here: a seat from before players becomes this browser's player's. */
  claimSeat: (id: string, token: string) => call<{ seat: number; mine: boolean }>("POST", `/api/games/${id}/claim`, {}, token),
  replay: (id: string, n: number, seat: number | null) =>
    call<ReplayFrame>("GET", `/api/games/${id}/replay/${n}${seat === null ? "" : `?seat=${seat}`}`),
  /** The player's notice switches (docs/REACH.md), and setting some of them. */
  noticeSwitches: () => call<NoticeSwitches>("GET", "/api/me/notices"),
  setNoticeSwitches: (changes: SetNoticeSwitches) => call<NoticeSwitches>("PUT", "/api/me/notices", changes),
  /** Whether this seat may nudge the seat to move now, and nudging it. */
  nudgeState: (id: string, token: string | null) => call<NudgeInfo>("GET", `/api/games/${id}/nudge`, undefined, token),
  nudge: (id: string, token: string | null) => call<NudgeInfo>("POST", `/api/games/${id}/nudge`, {}, token),
  /** The rematch of a finished game; with a seat token (or this device's seat), its new link. */
  rematch: (id: string, token: string | null) => call<RematchInfo>("GET", `/api/games/${id}/rematch`, undefined, token),
  offerRematch: (id: string, token: string | null, empty_seats: "open" | "bot") =>
    call<RematchInfo>("POST", `/api/games/${id}/rematch`, { empty_seats }, token),
  answerRematch: (id: string, token: string | null, accept: boolean) =>
    call<RematchInfo>("POST", `/api/games/${id}/rematch/answer`, { accept }, token),
  startRematch: (id: string, token: string | null) => call<RematchInfo>("POST", `/api/games/${id}/rematch/start`, {}, token),
  ratings: (id: string, token: string | null) => call<GameRatings>("GET", `/api/games/${id}/ratings`, undefined, token),
  player: (id: string) => call<Profile>("GET", `/api/players/${encodeURIComponent(id)}`),
};

/** How this browser hosts a game: with its host link's token, or (`token` null) as the player
 * who created it, by their cookie, on a device that holds no host link (`api.hosting`). */
export interface Host {
  token: string | null;
}

// -- seats kept in localStorage, so a reload rejoins ------------------------------------------
export interface SeatToken {
  seat: number;
  token: string;
  name: string;
}
const KEY = "brass.seats";
/** Fired on `window` whenever a seat or host token is stored (a join, a link opened, a renewal). */
export const SEATS_CHANGED = "brass-seats-changed";
function readAll(): Record<string, SeatToken> {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "{}");
  } catch {
    return {};
  }
}
/** The other seats this browser took of a game its host let be played on one shared screen. */
function readShared(game: string): SeatToken[] {
  try {
    return JSON.parse(localStorage.getItem(`brass.shared.${game}`) ?? "[]");
  } catch {
    return [];
  }
}
export const seats = {
  get: (game: string): SeatToken | null => readAll()[game] ?? null,
  /** The seats taken here after the first (`get`) of a shared-screen game. */
  shared: readShared,
  addShared(game: string, s: SeatToken) {
    const others = readShared(game).filter((o) => o.seat !== s.seat);
    localStorage.setItem(`brass.shared.${game}`, JSON.stringify([...others, s]));
    dispatchEvent(new Event(SEATS_CHANGED));
  },
  set(game: string, s: SeatToken) {
    localStorage.setItem(KEY, JSON.stringify({ ...readAll(), [game]: s }));
    dispatchEvent(new Event(SEATS_CHANGED));
  },
  /** Every game this browser holds a seat in, by game id. */
  all: (): Record<string, SeatToken> => readAll(),
  hostToken: (game: string): string | null => localStorage.getItem(`brass.host.${game}`),
  setHostToken: (game: string, token: string) => {
    localStorage.setItem(`brass.host.${game}`, token);
    dispatchEvent(new Event(SEATS_CHANGED));
  },
  /** The invite secret of a game, as this browser knows it (from the invite link, or as host). */
  invite: (game: string): string | null => localStorage.getItem(`brass.invite.${game}`),
  setInvite: (game: string, invite: string) => {
    localStorage.setItem(`brass.invite.${game}`, invite);
    dispatchEvent(new Event(SEATS_CHANGED));
  },
  lastName: () => localStorage.getItem("brass.name") ?? "",
  setLastName: (n: string) => localStorage.setItem("brass.name", n),
};

/** This browser's random id, sent when joining: the server gives one browser one seat per
 * game unless the host allowed a shared screen. */
export function browserId(): string {
  let id = localStorage.getItem("brass.browser");
  if (!id) {
    id = newActionId().replace(/[^A-Za-z0-9_-]/g, "").padEnd(24, "0").slice(0, 40);
    localStorage.setItem("brass.browser", id);
  }
  return id;
}

export function newActionId(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c?.randomUUID) return c.randomUUID();
  return `a${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
}

// -- websocket ---------------------------------------------------------------------------------
/** Send one of the messages the server's `ClientMessage` describes (typed from it). */
function say(ws: WebSocket, msg: ClientMessage): void {
  ws.send(JSON.stringify(msg));
}
const SHOWN_EVENTS = ["focus", "blur"] as const; // with visibilitychange: the page shown or not

/** "unreachable": the server answers but cannot reach its database (it refused the hello as
 * `unavailable`); the socket tries again with backoff until a hello is answered. */
export type ConnStatus = "connecting" | "open" | "reconnecting" | "unreachable" | "closed";

/** One game's socket: says hello (a seat token or null), hands every state to `onState` and
 * every message to `onMessage` and to the subscribers, and on a drop shows "reconnecting" and
 * reconnects with backoff; the server answers a new hello with the full current state, so a
 * reconnect is a full resync (`onState` is then called with `fresh` true). A hello refused in a
 * way that may pass (an instance that has not heard of the join yet, a database out of reach)
 * is said again after a jittered wait; a final refusal reaches the handlers. The backoff starts
 * over only once a hello is answered: a server without its database accepts the socket, says
 * `unavailable` and closes it, and a reset on each accept had the page reconnect 4-5 times a
 * second for the whole outage. */
export class GameSocket {
  private ws: WebSocket | null = null;
  private tries = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private holdUntil = 0;
  private fresh = true;
  private helloTries = 0; // hellos refused in a row, a stale or unreachable server's perhaps
  private greeted = false; // this connection's hello was answered with a state
  private unreachable = false; // the last hello was refused as `unavailable`, none answered since
  private opened = 0; // connections opened so far (`connection`)
  private subscribers = new Set<(m: WsMessage) => void>();
  private greeters = new Set<() => void>(); // told each time a connection's hello is answered
  private shown: boolean | null = null; // what the server was last told (visible or not)
  status: ConnStatus = "connecting";

  constructor(
    private game: string,
    private token: string | null,
    private handlers: {
      onState: (s: StateMessage, fresh: boolean) => void;
      onStatus: (s: ConnStatus) => void;
      onMessage?: (m: WsMessage) => void;
    },
  ) {
    for (const e of SHOWN_EVENTS) window.addEventListener(e, this.onShown);
    document.addEventListener("visibilitychange", this.onShown);
    this.open();
  }

  /** The server holds this game's notices back while the page shows it (docs/REACH.md): it
   * is told when that changes, and again on each new connection. */
  private onShown = () => {
    const shown = document.visibilityState === "visible" && document.hasFocus();
    if (shown === this.shown || this.ws?.readyState !== WebSocket.OPEN || !this.greeted) return;
    this.shown = shown;
    this.ws.send(JSON.stringify({ type: "visible", visible: shown }));
  };

  private setStatus(s: ConnStatus) {
    this.status = s;
    this.handlers.onStatus(s);
  }

  /** Which connection the socket is on (a count of those opened): what was sent on an
   * earlier one will never be answered on this one. */
  get connection(): number {
    return this.opened;
  }

  private open() {
    this.opened++;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/games/${this.game}`);
    this.ws = ws;
    // no token (""): a seat of this browser's player, by its cookie (or a spectator)
    const hello = () => say(ws, { type: "hello", token: this.token || null, seat: null });
    ws.onopen = () => {
      this.fresh = true;
      this.greeted = false;
      hello();
      this.setStatus(this.unreachable ? "unreachable" : "open"); // open, not yet greeted
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data) as WsMessage;
      if (msg.type === "error" && !this.greeted) {
        if (msg.code === "unavailable" && !this.unreachable) {
          this.unreachable = true; // said in words, not "Connecting…", until a hello is answered
          this.setStatus("unreachable");
        }
        // a refused hello that may be transient is said again (backoff.ts), unseen; a final
        // one goes on to the handlers (a renewed link: the seat is lost)
        const wait = helloRetry(msg.code, this.helloTries);
        if (wait !== null) {
          this.helloTries++;
          setTimeout(() => {
            if (this.ws === ws && ws.readyState === WebSocket.OPEN && !this.greeted) hello();
          }, wait);
          return;
        }
      }
      const greeting = msg.type === "state" && !this.greeted;
      if (msg.type === "state") {
        if (!this.greeted) this.shown = null; // a new connection: tell it afresh
        this.greeted = true;
        this.helloTries = 0;
        this.tries = 0; // answered: a later drop starts the backoff over
        this.unreachable = false;
        if (this.status !== "open") this.setStatus("open");
        this.onShown();
        this.handlers.onState(msg, this.fresh);
        this.fresh = false;
      }
      this.handlers.onMessage?.(msg);
      for (const fn of this.subscribers) fn(msg);
      if (greeting) for (const fn of this.greeters) fn();
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      this.setStatus(this.unreachable ? "unreachable" : "reconnecting");
      const delay = Math.max(backoff(this.tries++), this.holdUntil - Date.now()); // jittered
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  /** Ask for the full state again (e.g. after a stale_version error). */
  sync() {
    if (this.ws?.readyState === WebSocket.OPEN) {
      this.fresh = true;
      say(this.ws, { type: "sync" });
    }
  }

  /** Ask for the extensions of a listed partial Sell or Network at `version` (answered by an
   * `extensions` message). False if the socket is not open. */
  extend(action: Action, version: number): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    say(this.ws, { type: "extend", action, version });
    return true;
  }

  /** Ask for the whole effect of a legal move at `version` (answered by a `preview`
   * message). False if the socket is not open. */
  preview(action: Action, version: number): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    say(this.ws, { type: "preview", action, version });
    return true;
  }

  /** Say something at the table (`name`: a spectator's; `line`: the line's id, the same each
   * time it is sent, so the server keeps it once). False if the socket is not open or its hello
   * not answered yet (the server would refuse the line: "Send hello first"). */
  chat(text: string, name?: string, line?: string): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN || !this.greeted) return false;
    say(this.ws, { type: "chat", text, name: name || null, line: line ?? null });
    return true;
  }

  /** Hear every message from the server; returns the unsubscribe. */
  subscribe(fn: (m: WsMessage) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  /** Call `fn` each time a connection's hello is answered (the server now sends this socket
   * every change): what was read before may have missed what came in between. */
  onGreeted(fn: () => void): () => void {
    this.greeters.add(fn);
    return () => this.greeters.delete(fn);
  }

  /** For tests and debugging: drop the connection as if the network failed, and stay away
   * for `holdMs`. */
  drop(holdMs = 0) {
    this.holdUntil = Date.now() + holdMs;
    this.ws?.close();
  }

  /** For tests and debugging: end a `drop`'s hold now and reconnect at once. */
  resume() {
    this.holdUntil = 0;
    if (this.ws || this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.open();
  }

  close() {
    this.stopped = true;
    for (const e of SHOWN_EVENTS) window.removeEventListener(e, this.onShown);
    document.removeEventListener("visibilitychange", this.onShown);
    if (this.timer) clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    this.setStatus("closed");
  }
}
