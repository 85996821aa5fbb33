import { describe, expect, it } from "vitest";
import { type Line, Outbox } from "./outbox";

/** An outbox on a scripted socket: `open` says whether it takes lines, `sent` what it took. */
function table() {
  const socket = { open: true, connection: 1, sent: [] as string[] };
  const box = new Outbox({
    send: (l: Line) => socket.open && socket.sent.push(l.text) > 0,
    connection: () => socket.connection,
    changed: () => {},
  });
  const texts = () => box.unsent.map((l) => l.text);
  return { socket, box, texts };
}

const stored = (text: string) => ({ text, spectator: false });

describe("a chat line refused while the database is out of reach", () => {
  it("waits, held, and is sent again once, in order, when the game answers", () => {
    const { socket, box, texts } = table();
    box.say({ text: "first" });
    box.say({ text: "second" });
    expect(socket.sent).toEqual(["first", "second"]);
    expect(box.refused("unavailable")).toBe(true); // "first"
    expect(box.refused("unavailable")).toBe(true); // "second"
    box.say({ text: "third" }); // said meanwhile: behind them
    expect(texts()).toEqual(["first", "second", "third"]);
    expect(box.held).toBe(true);
    expect(socket.sent).toEqual(["first", "second"]); // nothing more while held
    box.flush();
    expect(socket.sent).toEqual(["first", "second"]);

    box.release(); // a state came: the database answers again
    expect(socket.sent).toEqual(["first", "second", "first", "second", "third"]);
    expect(texts()).toEqual([]);
    for (const t of ["first", "second", "third"]) expect(box.heard(stored(t), false)).toBe(true);
    box.release();
    expect(socket.sent.length, "each line sent again once").toBe(5);
  });

  it("goes before the lines said after it that were sent meanwhile but refused too", () => {
    const { socket, box, texts } = table();
    box.say({ text: "a" });
    box.say({ text: "b" });
    expect(box.heard(stored("a"), false)).toBe(true); // stored
    expect(box.refused("unavailable")).toBe(true); // "b"
    box.say({ text: "c" });
    expect(texts()).toEqual(["b", "c"]);
    expect(socket.sent).toEqual(["a", "b"]);
  });

  it("is lost to a final refusal, which the player is told (muted, too fast)", () => {
    const { box, texts } = table();
    box.say({ text: "spam" });
    expect(box.refused("rate_limited")).toBe(false);
    expect(texts()).toEqual([]);
    box.say({ text: "ok" });
    expect(box.heard(stored("ok"), false)).toBe(true); // the refusal was about "spam"
  });

  it("is not matched to a line sent on a connection since dropped", () => {
    const { socket, box, texts } = table();
    box.say({ text: "before the drop" }); // never answered
    socket.connection = 2;
    box.say({ text: "after" }); // the line of the dropped connection goes again, first
    expect(socket.sent).toEqual(["before the drop", "before the drop", "after"]);
    expect(box.refused("unavailable")).toBe(true); // about the one sent again
    expect(texts()).toEqual(["before the drop"]);
    expect(box.heard(stored("after"), false)).toBe(true);
  });

  it("waits for the socket when it is not open, and the lines go in order", () => {
    const { socket, box, texts } = table();
    socket.open = false;
    box.say({ text: "one" });
    box.say({ text: "two" });
    expect(texts()).toEqual(["one", "two"]);
    expect(box.held).toBe(false);
    socket.open = true;
    box.flush();
    expect(socket.sent).toEqual(["one", "two"]);
  });

  it("sends a line in flight when the connection dropped again on the next, with its id", () => {
    const ids: string[] = [];
    const socket = { open: true, connection: 1 };
    const again = new Outbox({
      send: (l) => socket.open && ids.push(`${l.text} ${l.line}`) > 0,
      connection: () => socket.connection,
      changed: () => {},
    });
    again.say({ text: "lost?" });
    again.say({ text: "and this" });
    socket.open = false; // the connection drops: the answers never come
    socket.connection = 2;
    again.flush();
    expect(again.unsent.map((l) => l.text), "waiting, in order").toEqual(["lost?", "and this"]);
    socket.open = true; // the next connection's hello is answered
    again.release();
    expect(ids.length).toBe(4);
    expect(ids.slice(2), "the same ids as the first time").toEqual(ids.slice(0, 2));
    const [first, second] = ids.slice(0, 2).map((i) => i.split(" ").pop() as string);
    expect(first).not.toBe(second);
    expect(first).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
    // the server stored "lost?" before the drop: it answers it again, by its id
    expect(again.heard({ text: "lost?", spectator: false, line: first }, false)).toBe(true);
    expect(again.heard({ text: "and this", spectator: false, line: "another page's" }, false))
      .toBe(false);
    expect(again.heard({ text: "and this", spectator: false, line: second }, false)).toBe(true);
    expect(again.unsent).toEqual([]);
  });

  it("hears other people's lines as theirs", () => {
    const { box } = table();
    box.say({ text: "hello" });
    expect(box.heard(stored("something else"), false)).toBe(false);
    expect(box.heard({ text: "hello", spectator: true }, false)).toBe(false);
    expect(box.heard(stored("hello"), false)).toBe(true);
  });
});
