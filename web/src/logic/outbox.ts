// The chat lines a page said, on their way to the server: waiting (the socket was not open, or
// the database could not take them) or sent and not yet answered. The server answers a
// socket's lines in order, each with the line stored (a `chat` message, to every socket of the
// game, this one among them) or a refusal (`error` about chat): so an answer is about the
// oldest line in flight. A line refused as `unavailable` (the database out of reach) is not
// lost: it waits, held, before the lines said after it, until `release` sends it again.
// Nor is a line in flight when the connection drops: it goes again on the next one, with the
// id it first went with (`line`), which the server stores once (a line it had stored before
// the drop is answered again as stored, and the page keeps each line once, by its id).

/** A line as said: its text, and a spectator's name. */
export interface Line {
  text: string;
  name?: string;
}

/** A line on its way: `line`, its id (the same each time it is sent); `held`: the database
 * could not take it, it waits for `release`. */
export interface Waiting extends Line {
  seq: number;
  line: string;
  held: boolean;
}

export interface OutboxIO {
  /** Send a line now; false if the socket cannot (not open, or its hello not answered). */
  send: (line: Waiting) => boolean;
  /** The socket's connection (GameSocket.connection): what went on an earlier one is never
   * answered on this one, so it is sent again on it. */
  connection: () => number;
  /** What waits changed (a component draws it again). */
  changed: () => void;
}

export class Outbox {
  private waiting: Waiting[] = [];
  private flying: { line: Waiting; connection: number }[] = [];
  private said = 0;
  /** This page's part of its lines' ids: another page's lines never share one. */
  private readonly page = randomId();

  constructor(private io: OutboxIO) {}

  /** The lines not sent, in the order said. */
  get unsent(): readonly Waiting[] {
    return this.waiting;
  }

  /** The first line waits for the database (and the others behind it). */
  get held(): boolean {
    return this.waiting[0]?.held ?? false;
  }

  /** A new line: sent now, unless the socket cannot take it or lines said before it wait. */
  say(line: Line): void {
    const seq = this.said++;
    this.waiting.push({ ...line, seq, line: `${this.page}-${seq}`, held: false });
    this.io.changed();
    this.flush();
  }

  /** Send what waits, in order, until a held line or a socket that takes no more. */
  flush(): void {
    this.inFlight();
    let sent = 0;
    while (this.waiting.length > 0 && !this.waiting[0].held && this.io.send(this.waiting[0])) {
      this.flying.push({ line: this.waiting.shift() as Waiting, connection: this.io.connection() });
      sent++;
    }
    if (sent > 0) this.io.changed();
  }

  /** The server stored a line (`m`): whether it is this page's oldest line in flight. */
  heard(m: { text: string; spectator: boolean; line?: string | null }, spectator: boolean): boolean {
    const first = this.inFlight()[0];
    if (!first || (m.line ? m.line !== first.line.line
      : first.line.text !== m.text || m.spectator !== spectator)) return false;
    this.flying.shift();
    return true;
  }

  /** The server refused this page's oldest line in flight with `code`: whether it was put
   * back to wait (`unavailable`); any other refusal is final (muted, too fast, the game over). */
  refused(code: string): boolean {
    const first = this.inFlight().shift();
    if (!first || code !== "unavailable") return false;
    this.waiting = [...this.waiting, { ...first.line, held: true }].sort((a, b) => a.seq - b.seq);
    this.io.changed();
    return true;
  }

  /** The game may take lines again (a state came, or the wait is over): held lines go. */
  release(): void {
    if (this.waiting.some((l) => l.held)) {
      this.waiting = this.waiting.map((l) => ({ ...l, held: false }));
      this.io.changed();
    }
    this.flush();
  }

  /** The lines in flight on the socket's present connection; those sent on an earlier one
   * wait again, in the order said, to go on this one. */
  private inFlight(): { line: Waiting; connection: number }[] {
    const now = this.io.connection();
    const lost = this.flying.filter((f) => f.connection !== now);
    if (lost.length > 0) {
      this.flying = this.flying.filter((f) => f.connection === now);
      this.waiting = [...this.waiting, ...lost.map((f) => f.line)].sort((a, b) => a.seq - b.seq);
      this.io.changed();
    }
    return this.flying;
  }
}

/** 12 random characters of [A-Za-z0-9_-]. */
function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}
