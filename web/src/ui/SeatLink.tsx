// Always at hand on a game page, in one "Share and links" menu of the header: copy my seat link
// (and the host link), or renew it (the old link stops working at once). Opening a link in any
// browser takes the seat back (App.tsx). A host by their player cookie (another device of the
// player who created the game) has no host link here: only the webhook.
import type { JSX } from "preact";
import { useRef, useState } from "preact/hooks";
import { api, type Host, type SeatToken, seats } from "../api/client";
import { seatLink, type LinkRole } from "../logic/links";
import { t } from "../i18n";
import { useDismiss } from "./useDismiss";
import { Webhook } from "./Webhook";

function link(game: string, role: LinkRole, token: string): string {
  return seatLink(location.origin, location.pathname, game, role, token);
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function SeatLinks({ id, mine: held, host }: { id: string; mine: SeatToken | null; host: Host | null }): JSX.Element | null {
  const mine = held?.token ? held : null; // a seat held by the player's cookie has no link here
  const [copied, setCopied] = useState<LinkRole | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const menu = useRef<HTMLDetailsElement>(null);
  // the menu opens towards the middle of the page: from a button on the left (the lobby, a
  // phone's wrapped header) it would run off the screen's left edge
  const [side, setSide] = useState<"left" | "right">("right");
  const aim = (e: MouseEvent) => {
    const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
    setSide(r.left + r.width / 2 < document.documentElement.clientWidth / 2 ? "left" : "right");
  };
  useDismiss(menu);
  if (!mine && !host) return null;

  async function copy(role: LinkRole, token: string) {
    const url = link(id, role, token);
    setShown(url); // visible (and selectable) where the clipboard is not allowed
    setCopied((await copyText(url)) ? role : null);
  }
  async function renew(role: LinkRole, token: string) {
    if (!confirm(t("links.confirm_renew", { role }))) return;
    setError(null);
    try {
      const r = await api.renew(id, token);
      if (r.role === "seat" && mine) seats.set(id, { ...mine, token: r.token });
      else seats.setHostToken(id, r.token);
      setShown(link(id, role, r.token));
      setCopied(null);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }
  return (
    <details class="share-menu" data-testid="seat-links" ref={menu}>
      <summary data-testid="share-menu" onClick={aim}>{t("links.menu")}</summary>
      <div class={`share-items from-${side}`}>
        {mine && <>
          <button type="button" onClick={() => copy("seat", mine.token)} data-testid="copy-seat-link"
            title={t("links.seat_title")}>{copied === "seat" ? t("links.copied") : t("links.copy_seat")}</button>
          <button type="button" onClick={() => renew("seat", mine.token)} data-testid="renew-seat-link">{t("links.renew_seat")}</button>
        </>}
        {host?.token && <>
          <button type="button" onClick={() => host.token && copy("host", host.token)} data-testid="copy-host-link">{copied === "host" ? t("links.copied") : t("links.copy_host")}</button>
          <button type="button" onClick={() => host.token && renew("host", host.token)} data-testid="renew-host-link">{t("links.renew_host")}</button>
        </>}
        {host && <Webhook id={id} host={host} />}
        {shown && <input class="seat-link" readOnly value={shown} data-testid="seat-link" aria-label={t("links.shown")}
          onFocus={(e) => (e.target as HTMLInputElement).select()} />}
        {error && <span class="message bad">{error}</span>}
      </div>
    </details>
  );
}
