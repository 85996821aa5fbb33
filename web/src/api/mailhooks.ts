// E-mail notices and game webhooks (docs/REACH.md): the signed-in player's e-mail switches,
// and the host's webhook of a game (with the host token, or the cookie of the player hosting it).
import { call, type Host } from "./client";
import type { EmailNotices, EmailNoticesIn, WebhookOut } from "./types";

export type { EmailNotices };

export const mail = {
  switches: () => call<EmailNotices>("GET", "/api/me/email-notices"),
  set: (changes: EmailNoticesIn) => call<EmailNotices>("PUT", "/api/me/email-notices", changes),
};

export const webhook = {
  get: (game: string, host: Host) => call<WebhookOut>("GET", `/api/games/${game}/webhook`, undefined, host.token),
  set: (game: string, host: Host, url: string) => call<WebhookOut>("PUT", `/api/games/${game}/webhook`, { url }, host.token),
  drop: (game: string, host: Host) => call<null>("DELETE", `/api/games/${game}/webhook`, undefined, host.token),
};
