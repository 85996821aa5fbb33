// The game socket against a scripted server (a fake WebSocket, fake timers): a server that
// cannot reach its database accepts each socket, says `unavailable` and closes it; the page must
// back off, and say so, until a hello is answered.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FIRST_MS, MOST_MS } from "../logic/backoff";
import { type ConnStatus, GameSocket } from "./client";

/** A socket as the page sees it; the test plays the server (`accept`, `say`, `hangUp`). */
class FakeSocket {
  static readonly OPEN = 1;
  static made: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  at = Date.now(); // when the page opened it
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(public url: string) {
    FakeSocket.made.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.hangUp();
  }
  accept() {
    this.readyState = 1;
    this.onopen?.();
  }
  say(msg: object) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  hangUp() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.();
  }
}

const UNAVAILABLE = { type: "error", code: "unavailable", message: "The game database cannot be reached: try again shortly" };
const STATE = { type: "state", version: 0, status: "running", seat: null, view: null, log: [], undone: [] };

/** What ws.py does while Postgres is down: accept, say why, close (1013). */
function refuse(s: FakeSocket) {
  s.accept();
  s.say(UNAVAILABLE);
  s.hangUp();
}

let seen = 0; // sockets the server has answered

/** Run the clock for `ms`, answering each socket not answered yet with `answer`. */
function serve(ms: number, answer: (s: FakeSocket) => void) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    vi.advanceTimersByTime(10);
    for (; seen < FakeSocket.made.length; seen++) answer(FakeSocket.made[seen]);
  }
}

describe("a game socket while the server cannot reach its database", () => {
  let statuses: ConnStatus[];
  let socket: GameSocket;
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.made = [];
    seen = 0;
    const events = { addEventListener: () => {}, removeEventListener: () => {} };
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.stubGlobal("window", events);
    vi.stubGlobal("document", { ...events, visibilityState: "visible", hasFocus: () => true });
    vi.stubGlobal("location", { protocol: "http:", host: "brass.test" });
    statuses = [];
    socket = new GameSocket("g1", null, { onState: () => {}, onStatus: (s) => statuses.push(s) });
  });
  afterEach(() => {
    socket.close();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("reconnects ever more slowly, not several times a second, and says why", () => {
    serve(60_000, refuse);
    const gaps = FakeSocket.made.slice(1).map((s, i) => s.at - FakeSocket.made[i].at);
    // doubling from 300 ms: from the sixth try on, each wait is at least half the most
    expect(gaps.slice(5).every((g) => g >= MOST_MS / 2), `waits (ms) ${gaps.slice(0, 12)}…`).toBe(true);
    expect(FakeSocket.made.length, `waits (ms) ${gaps.slice(0, 12)}…`).toBeLessThan(30); // was ~270 in a minute
    // once refused, the page says the database is out of reach, never "Connecting…" between
    const first = statuses.indexOf("unreachable");
    expect(first, `statuses ${statuses}`).toBeGreaterThanOrEqual(0);
    expect(new Set(statuses.slice(first)), `statuses ${statuses}`).toEqual(new Set(["unreachable"]));
  });

  it("starts the backoff over once a hello is answered", () => {
    serve(30_000, refuse);
    const answered = FakeSocket.made.length;
    serve(MOST_MS + 100, (s) => {
      s.accept();
      s.say(STATE);
    });
    expect(FakeSocket.made.length, "one more socket, greeted").toBe(answered + 1);
    expect(statuses.at(-1)).toBe("open");
    const dropped = Date.now();
    FakeSocket.made[answered].hangUp(); // a server restart, say
    expect(statuses.at(-1)).toBe("reconnecting");
    serve(FIRST_MS + 20, () => {});
    expect(FakeSocket.made.length, "reconnected within the first wait").toBe(answered + 2);
    expect(FakeSocket.made[answered + 1].at - dropped).toBeLessThanOrEqual(FIRST_MS);
  });

  it("sends no chat line before the hello is answered (the server would refuse it)", () => {
    serve(10, () => {});
    FakeSocket.made[0].accept();
    expect(socket.chat("too early")).toBe(false);
    FakeSocket.made[0].say(STATE);
    expect(socket.chat("now")).toBe(true);
    expect(FakeSocket.made[0].sent.at(-1)).toContain('"now"');
  });
});
