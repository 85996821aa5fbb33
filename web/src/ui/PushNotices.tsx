// Notices outside the open tab by Web Push (issue 27, docs/REACH.md): this browser's "on this
// device" switch and the player's switches of what is notified, on the desk and on the account
// page (a player with no game yet has no desk: they found nowhere to turn them on).
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { disablePush, enablePush, leaveWords, pushOn, pushSupported } from "../api/push";
import { t } from "../i18n";
import { noticeWords, NoticeSwitches } from "./NoticeSwitches";

/** "Notify me": this browser is told of the player's turns with the tab closed (Web Push).
 * Where the browser's settings block the site's notices it says so (the switch used to uncheck
 * itself without a word, and every later click did nothing), and a failure says why. */
function NotifySwitch(): JSX.Element | null {
  const [on, setOn] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<(() => string) | null>(null); // in the language of the moment
  const words = noticeWords;
  useEffect(() => {
    pushOn().then((yes) => {
      setOn(yes);
      if (yes) leaveWords(words()).catch(() => undefined); // the language may have changed
    }).catch(() => setOn(false));
  }, []);
  if (!pushSupported() || on === null) return null;
  const flip = async () => {
    setBusy(true);
    setSaid(null);
    try {
      if (on) {
        await disablePush();
        setOn(false);
      } else {
        const answer = await enablePush(words());
        setOn(answer === "on");
        if (answer === "blocked") setSaid(() => () => t("desk.notify_blocked"));
      }
    } catch (err) {
      setOn(await pushOn().catch(() => false));
      const message = err instanceof Error ? err.message : String(err);
      setSaid(() => () => t("desk.notify_failed", { message }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <label class="desk-notify" data-testid="desk-notify">
        <input type="checkbox" checked={on} disabled={busy} onChange={flip} /> {t("desk.notify")}
      </label>
      {said && <p class="message bad" role="alert" data-testid="notify-said">{said()}</p>}
    </>
  );
}

/** The device's switch and the kinds' switches, which govern these notifications only (the
 * e-mails have their own, on the account page). */
export function PushNotices({ onAccount = false }: { onAccount?: boolean }): JSX.Element {
  return (
    <>
      <NotifySwitch />
      <NoticeSwitches onAccount={onAccount} />
    </>
  );
}
