// The table's chat: the history (GET /chat, a page at a time) then every message the socket
// brings; players' messages and spectators' are listed apart. Text is shown as text (Preact
// escapes it). In a replay, the messages sent up to the move shown. The host deletes a message
// (gone for everyone: the socket says `chat_deleted`) and mutes a seat or the spectators.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, type GameSocket, type Host, seats } from "../api/client";
import type { ChatMessage, ChatMutes } from "../api/types";
import { PLAYER_SYMBOL } from "../board/symbols";
import { t } from "../i18n";
import { errorText } from "../i18n/refusals";
import { backoff } from "../logic/backoff";
import { Outbox } from "../logic/outbox";
import { PLAYER_COLOURS, PLAYER_NAMES } from "../logic/names";

export const MAX_CHARS = 300;
const PAGES = 10; // pages of history read at most (100 messages each)

/** `old` and the messages of `more` it lacks, in the order they were sent. */
function merged(old: ChatMessage[], more: ChatMessage[]): ChatMessage[] {
  const seen = new Set(old.map((m) => m.id));
  return [...old, ...more.filter((m) => !seen.has(m.id))].sort((a, b) => a.id - b.id);
}

/** The game's messages: the stored ones, then those the socket brings, each once. */
export function useChat(id: string, socket: GameSocket | null): ChatMessage[] {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  useEffect(() => {
    let live = true;
    const add = (more: ChatMessage[]) => setMessages((old) => merged(old, more));
    const page = (before: number | null, left: number) =>
      api.chat(id, before).then((h) => {
        if (!live) return;
        add(h.messages);
        if (h.next !== null && h.next !== undefined && left > 1) page(h.next, left - 1);
      }).catch(() => {});
    page(null, PAGES);
    let arriving: Set<number> | null = null; // lines the socket brought since a re-read began
    const off = socket?.subscribe((m) => {
      if (m.type === "chat") {
        add([m.message]);
        arriving?.add(m.message.id);
      }
      if (m.type === "chat_deleted") setMessages((old) => old.filter((x) => x.id !== m.id));
    });
    // a line stored before the socket's hello was answered (or while it was reconnecting)
    // comes by neither the first read nor the socket, and a line deleted meanwhile was never
    // said to be gone: read the newest page again then, and drop what it no longer holds
    const reread = () => {
      const mine = (arriving = new Set<number>());
      api.chat(id, null).then((h) => {
        if (!live) return;
        if (arriving === mine) arriving = null;
        const ids = new Set(h.messages.map((m) => m.id));
        const more = h.next !== null && h.next !== undefined;
        const floor = more ? Math.min(...ids) : -Infinity; // older lines: not in this page
        setMessages((old) => merged(
          old.filter((m) => m.id < floor || ids.has(m.id) || mine.has(m.id)), h.messages));
      }).catch(() => {});
    };
    const greeted = socket?.onGreeted(reread);
    return () => {
      live = false;
      off?.();
      greeted?.();
    };
  }, [id, socket]);
  return messages;
}

function Line({ m, onDelete }: { m: ChatMessage; onDelete?: (id: number) => void }) {
  return (
    <li data-chat-id={m.id} class={m.spectator ? "spectator" : "player"}>
      {m.seat !== null && <span class="chat-seat" style={{ color: PLAYER_COLOURS[m.seat] }} aria-label={PLAYER_NAMES[m.seat]}>{PLAYER_SYMBOL[m.seat]} </span>}
      <b class="chat-name"><bdi>{m.name}</bdi></b>: <bdi class="chat-text">{m.text}</bdi>
      {onDelete && <button type="button" class="chat-delete" data-testid="chat-delete" title={t("chat.delete")}
        aria-label={t("chat.delete")} onClick={() => onDelete(m.id)}>×</button>}
    </li>
  );
}

/** The host's mutes: a box per seat and one for the spectators. They follow the socket's
 * `chat_mutes` (a change made on another page, or by the server's admin), and are read again
 * after each answered hello (a change made while the socket was away). */
function Mutes({ id, host, seatNames, bots, socket }: {
  id: string; host: Host; seatNames: (string | null)[]; bots: boolean[]; socket: GameSocket;
}): JSX.Element {
  const [muted, setMuted] = useState<ChatMutes | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const read = () => api.chat(id).then((h) => setMuted(h.muted)).catch((e) => setError(e.message));
    read();
    const off = socket.subscribe((m) => {
      if (m.type === "chat_mutes") setMuted(m.muted);
    });
    const greeted = socket.onGreeted(read);
    return () => {
      off();
      greeted();
    };
  }, [id, socket]);
  const toggle = (seat: number | null, on: boolean) =>
    api.muteChat(id, host, seat, on).then(setMuted).catch((e) => setError(e.message));
  if (!muted) return <></>;
  return (
    <fieldset class="chat-mutes" data-testid="chat-mutes">
      <legend>{t("chat.muted")}</legend>
      {seatNames.map((n, s) => bots[s] ? null : (
        <label key={s}><input type="checkbox" data-testid={`chat-mute-${s}`} checked={muted.seats.includes(s)}
          disabled={muted.admin_seats.includes(s)}
          onChange={(e) => toggle(s, (e.target as HTMLInputElement).checked)} /> <bdi>{n ?? PLAYER_NAMES[s]}</bdi>
          {muted.admin_seats.includes(s) && <span class="muted"> ({t("chat.muted_by_admin")})</span>}</label>
      ))}
      <label><input type="checkbox" data-testid="chat-mute-spectators" checked={muted.spectators}
        disabled={muted.admin_spectators}
        onChange={(e) => toggle(null, (e.target as HTMLInputElement).checked)} /> {t("chat.spectators")}
        {muted.admin_spectators && <span class="muted"> ({t("chat.muted_by_admin")})</span>}</label>
      {error && <div class="message bad">{error}</div>}
    </fieldset>
  );
}

export function ChatPanel({ messages, socket, spectator, upTo, host, closed }: {
  messages: ChatMessage[];
  /** null: read only (a replay) */
  socket: GameSocket | null;
  spectator: boolean;
  /** a replay: only messages sent within the first `upTo` actions */
  upTo?: number;
  /** the game's host (its id, how this browser hosts it, and the seat names): may delete
   * messages and mute */
  host?: { id: string; host: Host; seatNames: (string | null)[]; bots: boolean[] } | null;
  /** the game is over: the server takes no more messages, so none is offered */
  closed?: boolean;
}): JSX.Element {
  const [modError, setModError] = useState<string | null>(null);
  const onDelete = host && socket
    ? (m: number) => api.deleteChat(host.id, host.host, m).catch((e) => setModError(e.message))
    : undefined;
  const [text, setText] = useState("");
  const [name, setName] = useState(() => seats.lastName());
  const list = useRef<HTMLDivElement>(null);
  const shown = upTo === undefined ? messages : messages.filter((m) => m.actions <= upTo);
  const players = shown.filter((m) => !m.spectator);
  const watchers = shown.filter((m) => m.spectator);
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [shown.length]);
  // a refused line's reason (muted, too fast, the game over), shown where it was typed;
  // `passing`: the database was out of reach, old news once the game answers again
  const [refused, setRefused] = useState<{ text: string; passing: boolean } | null>(null);
  // lines said while the socket was not open, or refused while the database was out of reach:
  // sent, in order, once its hello is answered, or the game answers again (outbox.ts)
  const [, redraw] = useState(0);
  const current = useRef({ socket, spectator });
  current.current = { socket, spectator };
  const box = useRef<Outbox | null>(null);
  box.current ??= new Outbox({
    send: (l) => current.current.socket?.chat(l.text, l.name, l.line) ?? false,
    connection: () => current.current.socket?.connection ?? 0,
    changed: () => redraw((n) => n + 1),
  });
  const outbox = box.current;
  useEffect(() => {
    if (!socket) return;
    let tries = 0; // held lines sent again, with backoff, should no state come meanwhile
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answered = () => {
      tries = 0;
      setRefused((r) => (r?.passing ? null : r));
    };
    const off = socket.subscribe((m) => {
      if (m.type === "chat" && outbox.heard(m.message, current.current.spectator)) answered();
      else if (m.type === "error" && m.about === "chat") {
        if (!outbox.refused(m.code)) setRefused({ text: errorText(m), passing: m.code === "unavailable" });
        else {
          clearTimeout(timer);
          timer = setTimeout(() => outbox.release(), backoff(tries++));
        }
      } else if (m.type === "state") { // a move or a greeting: the game answers again
        answered();
        outbox.release();
      }
    });
    outbox.flush(); // the socket may have opened since
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [socket]);
  const send = (e: Event) => {
    e.preventDefault();
    const said = text.trim();
    if (!said || !socket) return;
    setRefused(null);
    outbox.say({ text: said, name: spectator ? name.trim() || undefined : undefined });
    setText("");
  };
  const unsent = outbox.unsent;
  return (
    <section class="chat panel" data-testid="chat" aria-label={t("chat.title")}>
      <div class="panel-title">{t("chat.title")}</div>
      <div class="chat-lists" ref={list} tabIndex={0} role="log" aria-label={t("chat.messages")}>
        <ul class="chat-players" data-testid="chat-players" aria-label={t("chat.players")}>
          {players.length === 0 && <li class="muted">{t("chat.empty")}</li>}
          {players.map((m) => <Line key={m.id} m={m} onDelete={onDelete} />)}
        </ul>
        {watchers.length > 0 && (
          <>
            <div class="chat-sub">{t("chat.spectators")}</div>
            <ul class="chat-spectators" data-testid="chat-spectators" aria-label={t("chat.spectators_label")}>
              {watchers.map((m) => <Line key={m.id} m={m} onDelete={onDelete} />)}
            </ul>
          </>
        )}
      </div>
      {modError && <div class="message bad">{modError}</div>}
      {host && socket && !closed && <Mutes id={host.id} host={host.host} seatNames={host.seatNames} bots={host.bots} socket={socket} />}
      {socket && closed && <p class="muted" data-testid="chat-closed">{t("chat.closed")}</p>}
      {socket && !closed && refused && <p class="message bad" data-testid="chat-refused" role="alert">{refused.text}</p>}
      {socket && !closed && unsent.length > 0 && (
        <div class="chat-unsent" data-testid="chat-unsent" role="status">
          <p class="muted">{outbox.held ? t("chat.held") : t("chat.unsent")}</p>
          <ul>{unsent.map((line, i) => <li key={i}>{line.text}</li>)}</ul>
        </div>
      )}
      {socket && !closed && (
        <form class={spectator ? "chat-form spectator" : "chat-form"} onSubmit={send}>
          {spectator && (
            <input name="chat-name" aria-label={t("chat.your_name")} placeholder={t("chat.your_name")} maxLength={40} value={name}
              onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          )}
          <input name="chat-text" aria-label={t("chat.message")} placeholder={spectator ? t("chat.say_spectator") : t("chat.say")}
            maxLength={MAX_CHARS} value={text} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
          <button type="submit" data-testid="chat-send" disabled={!text.trim()}>{t("chat.send")}</button>
        </form>
      )}
    </section>
  );
}
