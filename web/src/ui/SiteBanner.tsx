// The admin's banner (issue 25) at the top of every page: read when the page opens, when the
// player moves to another page of the app, when the tab is shown again, and every minute
// (the server answers from a copy at most 2 s old: a read costs it nothing).
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { banner } from "../api/admin";
import { bannerPieces } from "./bannerLinks";

/** Sent when the admin page changes the banner: shown here at once. */
export const BANNER_CHANGED = "brass-banner-changed";
const POLL_MS = 60_000;

export function SiteBanner(): JSX.Element | null {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    const load = () => {
      if (document.visibilityState !== "hidden") banner().then((b) => setText(b.text ?? null)).catch(() => undefined);
    };
    load();
    const timer = setInterval(load, POLL_MS);
    const events = ["hashchange", BANNER_CHANGED];
    for (const e of events) addEventListener(e, load);
    document.addEventListener("visibilitychange", load);
    return () => {
      clearInterval(timer);
      for (const e of events) removeEventListener(e, load);
      document.removeEventListener("visibilitychange", load);
    };
  }, []);
  if (!text) return null;
  // an address is a link, opened in a new tab without the banner's page as its opener or referrer
  return (
    <div class="site-banner" role="status" data-testid="site-banner">
      <bdi>{bannerPieces(text).map((p, i) => "url" in p
        ? <a key={i} href={p.url} target="_blank" rel="noopener noreferrer nofollow" dir="ltr">{p.url}</a>
        : p.text)}</bdi>
    </div>
  );
}
