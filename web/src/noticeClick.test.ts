import { describe, expect, it } from "vitest";
import { chooseWindow, onScreen, type Looked, type Shown } from "./noticeClick";

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
