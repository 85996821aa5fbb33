// The host's webhook of a game, in the "Share and links" menu (docs/REACH.md): a Discord or
// Slack incoming-webhook URL that each turn and the result are posted to. The server checks
// the URL (https, not a private address) and says why it refuses one.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { Host } from "../api/client";
import { webhook } from "../api/mailhooks";
import { t } from "../i18n";

export function Webhook({ id, host }: { id: string; host: Host }): JSX.Element {
  const [url, setUrl] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // what the host typed before the answer came is kept (it is theirs, not a stale field)
    webhook.get(id, host).then((w) => { setUrl((typed) => typed || (w.url ?? "")); setSaved(w.url ?? null); },
      () => {});
  }, [id, host.token]);
  const run = async (work: () => Promise<string | null>) => {
    setError(null);
    try {
      const now = await work();
      setSaved(now);
      setUrl(now ?? "");
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  const save = (e: Event) => {
    e.preventDefault();
    run(async () => (await webhook.set(id, host, url.trim())).url ?? null);
  };
  return (
    <form class="webhook" data-testid="webhook" onSubmit={save}>
      <label>{t("webhook.title")}{" "}
        <input type="url" name="webhook" dir="ltr" maxLength={1024}
          value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} title={t("webhook.help")} />
      </label>
      <button type="submit" disabled={!url.trim() || url.trim() === saved} data-testid="webhook-save">{t("webhook.save")}</button>
      {saved && <button type="button" data-testid="webhook-remove" onClick={() => run(async () => { await webhook.drop(id, host); return null; })}>{t("webhook.remove")}</button>}
      {saved && url.trim() === saved && <span class="muted" data-testid="webhook-saved">{t("webhook.saved")}</span>}
      <small class="muted">{t("webhook.help")}</small>
      {error && <div class="message bad">{error}</div>}
    </form>
  );
}
