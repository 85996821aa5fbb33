// "Nudge" (issue 27, docs/REACH.md): a seated player asks the person to move to play, which
// sends them a notice. The server says whether a nudge is allowed now (GET .../nudge, asked
// again when a turn starts): the client holds no rule of its own (none in a live game).
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "../api/client";
import type { NudgeInfo } from "../api/types";
import { dateTime, t } from "../i18n";
import { useBusy } from "./useBusy";

/** `turn`: when the turn to move started (a new turn of the same seat asks again). */
export function Nudge({ id, token, mover, turn }: {
  id: string; token: string | null; mover: number | null; turn: number | null;
}): JSX.Element | null {
  const [info, setInfo] = useState<NudgeInfo | null>(null);
  const { busy, error, run } = useBusy();
  useEffect(() => {
    let stop = false;
    setInfo(null);
    api.nudgeState(id, token).then((i) => !stop && setInfo(i)).catch(() => undefined);
    return () => {
      stop = true;
    };
  }, [id, token, mover, turn]);
  if (!info || (info.seat === null && !error)) return null;
  return (
    <span class="nudge">
      {info.allowed ? (
        <button type="button" class="small" data-testid="nudge" disabled={busy}
          onClick={() => run(async () => setInfo(await api.nudge(id, token)))}>{t("nudge.button")}</button>
      ) : info.wait === "thinking" && info.again_at ? (
        <span class="muted" data-testid="nudge-later">{t("nudge.later", { at: dateTime(info.again_at) })}</span>
      ) : (
        <span class="muted" data-testid="nudged">{t("nudge.done")}</span>
      )}
      {error && <span class="message bad">{error}</span>}
    </span>
  );
}
