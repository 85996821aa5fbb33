import { describe, expect, it } from "vitest";
import { chooseWindow, noticeBody, onScreen, type Looked, type Shown } from "./noticeClick";

const w = (id: string, hash: string | null, path = "/"): Shown => ({ id, path, hash });

describe("chooseWindow: the window a clicked notice opens its game in", () => {
  it("prefers a window that shows the game, though another was focused later", () => {
    expect(chooseWindow([w("desk", "#/"), w("game", "#/game/g1")], "#/game/g1")?.id).toBe("game");
  });
  it("else the most recently focused window that answered (it will be told to open the game)", () => {
    expect(chooseWindow([w("silent", null), w("desk", "#/"), w("other", "#/game/g2")], "#/game/g1")?.id).toBe("desk");
  });
  it("else the most recently focused app page, though it did not answer", () => {
    expect(chooseWindow([w("docs", null, "/docs"), w("old", null)], "#/game/g1")?.id).toBe("old");
  });
  it("none when the app has no window: the worker opens one", () => {
    expect(chooseWindow([], "#/game/g1")).toBeNull();
    expect(chooseWindow([w("docs", null, "/docs")], "#/game/g1")).toBeNull();
  });
});

describe("onScreen: a pushed notice goes without a notification", () => {
  const l = (hash: string | null, visible = true, focused = true): Looked => ({ visible, focused, hash });
  it("when a window the player looks at shows its game", () => {
    expect(onScreen([l("#/"), l("#/game/g1")], "#/game/g1")).toBe(true);
  });
  it("not when that window is hidden (a background tab) or behind another program", () => {
    expect(onScreen([l("#/game/g1", false, true)], "#/game/g1")).toBe(false);
    expect(onScreen([l("#/game/g1", true, false)], "#/game/g1")).toBe(false);
  });
  it("not for another game, nor when no window answered", () => {
    expect(onScreen([l("#/game/g2"), l(null)], "#/game/g1")).toBe(false);
    expect(onScreen([], "#/game/g1")).toBe(false);
  });
});

describe("noticeBody: what a notice says under the game's name", () => {
  const words = { ended: "The game is over", "ended.2.4": "place 2 of 4", chat: "Said to you", nudge: "Your move, please" };
  const notice = { game: "g1", name: "Friday", url: "/#/game/g1" };
  it("an end's place, from the words the page left", () => {
    expect(noticeBody({ ...notice, kind: "ended", place: 2, players: 4 }, words)).toBe("The game is over\nplace 2 of 4");
  });
  it("an end called off before its end has no place", () => {
    expect(noticeBody({ ...notice, kind: "ended" }, words)).toBe("The game is over");
  });
  it("a chat line after its sender's name, or who nudged", () => {
    expect(noticeBody({ ...notice, kind: "chat", by: "Ada", text: "@Bo hi" }, words)).toBe("Said to you\nAda: @Bo hi");
    expect(noticeBody({ ...notice, kind: "nudge", by: "Ada" }, words)).toBe("Your move, please\nAda");
  });
});
