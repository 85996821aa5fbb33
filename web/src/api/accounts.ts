// The account's calls: sign-in (passkeys, e-mail links), the account page. The browser's
// device cookie goes with each (same origin), and the browser adds the site's Origin to each
// write, which the server checks. Passkeys: the server's WebAuthn JSON options are turned into
// the ArrayBuffers `navigator.credentials` wants, and its answer back into JSON.
import { ApiError, call } from "./client";
import { errorText } from "../i18n/refusals";
import type { Account, EmailSent, Me, PasskeyInfo, SigninOptions } from "./types";

export type { Account, Me, SigninOptions };

export function fromB64url(s: string): ArrayBuffer {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out.buffer;
}

export function toB64url(buf: ArrayBuffer): string {
  let s = "";
  for (const byte of new Uint8Array(buf)) s += String.fromCharCode(byte);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

type Json = Record<string, unknown>;
type Descriptor = { id: string; type: string; transports?: string[] };
const descriptors = (list: unknown) =>
  ((list as Descriptor[] | undefined) ?? []).map((d) => ({ ...d, id: fromB64url(d.id) }) as PublicKeyCredentialDescriptor);

function creation(o: Json): PublicKeyCredentialCreationOptions {
  const user = o.user as { id: string; name: string; displayName: string };
  return {
    ...(o as unknown as PublicKeyCredentialCreationOptions),
    challenge: fromB64url(o.challenge as string),
    user: { ...user, id: fromB64url(user.id) },
    excludeCredentials: descriptors(o.excludeCredentials),
  };
}

function request(o: Json): PublicKeyCredentialRequestOptions {
  return {
    ...(o as unknown as PublicKeyCredentialRequestOptions),
    challenge: fromB64url(o.challenge as string),
    allowCredentials: descriptors(o.allowCredentials),
  };
}

/** A credential as the server reads it (what `PublicKeyCredential.toJSON()` gives). */
function answer(c: PublicKeyCredential): Json {
  const r = c.response as AuthenticatorAttestationResponse & AuthenticatorAssertionResponse;
  const response: Json = { clientDataJSON: toB64url(r.clientDataJSON) };
  if ("attestationObject" in r && r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    if (typeof r.getTransports === "function") response.transports = r.getTransports();
  } else {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    if (r.userHandle) response.userHandle = toB64url(r.userHandle);
  }
  return { id: c.id, rawId: toB64url(c.rawId), type: c.type, response, clientExtensionResults: c.getClientExtensionResults() };
}

/** The browser refused or the person cancelled: no server code, the browser's words. */
class PasskeyCancelled extends Error {}

async function ceremony<T>(run: () => Promise<Credential | null>): Promise<T> {
  let made: Credential | null;
  try {
    made = await run();
  } catch (err) {
    throw new PasskeyCancelled(err instanceof Error ? err.message : String(err));
  }
  if (!made) throw new PasskeyCancelled("");
  return made as T;
}

export const accounts = {
  options: () => call<SigninOptions>("GET", "/api/signin/options"),
  me: () => call<Me>("GET", "/api/me"),
  emailLink: (email: string) => call<EmailSent>("POST", "/api/signin/email", { email }),
  openLink: (token: string) => call<Me>("POST", "/api/signin/link", { token }),
  account: () => call<Account>("GET", "/api/account"),
  rename: (name: string) => call<Me>("PATCH", "/api/me", { name }),
  /** Whether the player's profile is public (GET /api/players/{id} answers 404 when not). */
  setListed: (listed: boolean) => call<Me>("PATCH", "/api/me", { listed }),
  signOut: () => call<null>("POST", "/api/account/signout"),
  removeDevice: (id: string) => call<null>("DELETE", `/api/account/devices/${encodeURIComponent(id)}`),
  removePasskey: (id: string) => call<null>("DELETE", `/api/account/passkeys/${encodeURIComponent(id)}`),
  deleteAccount: () => call<null>("DELETE", "/api/account"),
  async addPasskey(name: string): Promise<PasskeyInfo> {
    const options = await call<Json>("POST", "/api/passkeys/register/options");
    const made = await ceremony<PublicKeyCredential>(() => navigator.credentials.create({ publicKey: creation(options) }));
    return call<PasskeyInfo>("POST", "/api/passkeys/register", { credential: answer(made), name });
  },
  async passkeySignIn(): Promise<Me> {
    const options = await call<Json>("POST", "/api/passkeys/signin/options");
    const used = await ceremony<PublicKeyCredential>(() => navigator.credentials.get({ publicKey: request(options) }));
    return call<Me>("POST", "/api/passkeys/signin", { credential: answer(used) });
  },
};

export const passkeysWork = (): boolean => typeof window !== "undefined" && "PublicKeyCredential" in window;

let offered: Promise<boolean> | null = null;

/** Whether this browser can sign in on this server at all: an e-mail link, or a passkey that
 * the server offers and the browser has. Asked once a page load (again after a failure). A
 * server with neither (no public URL, no SMTP: the default `brass serve`) offered "Sign in"
 * all the same, to a page that said it offers nothing. */
export function signinOffered(): Promise<boolean> {
  offered ??= accounts.options().then((o) => o.email || (o.passkey && passkeysWork()), () => {
    offered = null;
    return false;
  });
  return offered;
}

/** What went wrong, in the player's language: a server refusal by its code, a cancelled
 * passkey by the catalogue's words. */
export function problem(err: unknown, cancelled: string): string {
  if (err instanceof PasskeyCancelled) return cancelled;
  if (err instanceof ApiError) return err.message;
  return errorText({ code: "error", message: String(err) });
}
