// The final scores' "Lost" column: VP a player paid for income they could not pay.
import { describe, expect, it } from "vitest";
import type { View } from "../api/types";
import { vpLost } from "./Log";

const era = (parts: [number, number][]) => parts.map(([links, industries]) => ({ links, industries }));

describe("the VP lost to unpaid income", () => {
  it("is what the two eras scored less the VP a player has", () => {
    const view = {
      players: [{ seat: 0, vp: 5 }, { seat: 1, vp: 31 }],
      era_scores: [era([[2, 0], [6, 10]]), era([[5, 0], [7, 8]])],
    } as unknown as Pick<View, "players" | "era_scores">;
    expect(vpLost(view)).toEqual([2, 0]);
  });

  it("is nothing before the rail era is scored", () => {
    const view = { players: [{ seat: 0, vp: 1 }], era_scores: [era([[4, 0]])] } as unknown as Pick<View, "players" | "era_scores">;
    expect(vpLost(view)).toEqual([0]);
  });
});
