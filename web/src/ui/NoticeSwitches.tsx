// The player's notice switches (issue 27, docs/REACH.md): which events reach them outside the
// game (GET/PUT /api/me/notices), one switch per kind, for all of their devices. The server
// decides when each kind is sent; this only shows and sets the switches.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "../api/client";
import type { NoticeSwitches as Switches } from "../api/types";
import { t } from "../i18n";

type Kind = keyof Switches;
/** Each kind with its label (the keys spelled out: the catalogues' test finds every key). */
const KINDS: [Kind, () => string][] = [
  ["turn", () => t("notices.turn")], ["started", () => t("notices.started")],
  ["ended", () => t("notices.ended")], ["replaced", () => t("notices.replaced")],
  ["rematch", () => t("notices.rematch")], ["nudge", () => t("notices.nudge")],
  ["clock", () => t("notices.clock")], ["chat", () => t("notices.chat")]];

/** The words each kind of notice says, in the page's language (the service worker has no
 * catalogue: api/push.ts leaves these for it). */
export function noticeWords(): Record<string, string> {
  const places: Record<string, string> = {}; // an end's result, `ended.PLACE.PLAYERS` (sw.ts)
  for (let players = 2; players <= 4; players++) {
    for (let place = 1; place <= players; place++) places[`ended.${place}.${players}`] = t("desk.place", { place, players });
  }
  return {
    turn: t("home.your_turn"), started: t("notices.said_started"), ended: t("notices.said_ended"),
    replaced: t("notices.said_replaced"), rematch: t("notices.said_rematch"),
    nudge: t("notices.said_nudge"), chat: t("notices.said_chat"), clock: t("desk.clock_low"), ...places,
  };
}

/** `onAccount`: shown on the account page, where the e-mails' switches are further down. */
export function NoticeSwitches({ onAccount = false }: { onAccount?: boolean }): JSX.Element | null {
  const [on, setOn] = useState<Switches | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.noticeSwitches().then(setOn).catch(() => setOn(null));
  }, []);
  if (!on) return null;
  const flip = async (kind: Kind) => {
    setBusy(true);
    try {
      setOn(await api.setNoticeSwitches({ [kind]: !on[kind] }));
    } catch {
      // the switch stays as the server last said
    } finally {
      setBusy(false);
    }
  };
  return (
    <details class="notice-switches" data-testid="notice-switches">
      <summary>{t("notices.title")}</summary>
      <p class="muted">{t("notices.push_only", { where: onAccount ? "here" : "elsewhere" })}</p>
      <ul>
        {KINDS.map(([kind, label]) => (
          <li key={kind}>
            <label>
              <input type="checkbox" data-kind={kind} checked={on[kind]} disabled={busy} onChange={() => flip(kind)} />{" "}
              {label()}
            </label>
          </li>
        ))}
      </ul>
    </details>
  );
}
