// The log kept up to date from the state messages (useGameState.nextLog).
import { describe, expect, it } from "vitest";
import type { LogEntry, StateMessage } from "../api/types";
import fixtures from "../logic/fixtures/effects.json";
import { nextLog } from "./useGameState";

const e = (seq: number): LogEntry => ({ ...(fixtures.build as unknown as LogEntry), seq });
const state = (version: number, log: LogEntry[], undone: number[] = []) =>
  ({ type: "state", version, log, undone }) as unknown as StateMessage;

describe("the log from state messages", () => {
  const held = { version: 4, entries: [e(1), e(2)] };
  it("the next version appends its entries", () => {
    expect(nextLog(held, state(5, [e(3)]))!.map((x) => x.seq)).toEqual([1, 2, 3]);
  });
  it("an undo takes its entries back", () => {
    expect(nextLog(held, state(5, [], [2]))!.map((x) => x.seq)).toEqual([1]);
  });
  it("the same version (a seat joined, a resync) keeps the log", () => {
    expect(nextLog(held, state(4, []))).toBe(held.entries);
  });
  it("a missed version means fetching the log", () => {
    expect(nextLog(held, state(6, [e(4)]))).toBeNull();
  });
});
