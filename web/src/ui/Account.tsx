import { dateOnly, t } from "../i18n";
// Sign-in and account pages (issue 24): #/signin (a passkey, or an e-mail link when the
// server offers it), #/signin/{token} (the page an e-mail link opens: the token is spent by a
// POST, then leaves the address bar), #/account (name, passkeys, devices, sign out, delete).
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { accounts, passkeysWork, problem, signinOffered } from "../api/accounts";
import type { Account, Me, SigninOptions } from "../api/accounts";
import { player, signedIn } from "../api/player";
import { EmailNotices } from "./EmailNotices";
import { PushNotices } from "./PushNotices";

/** Home, loaded afresh: the page's player (api/player.ts) is the one signed in now. */
const home = () => {
  location.hash = "#/";
  location.reload();
};

function EmailForm(props: { onError: (e: string | null) => void }): JSX.Element {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState<number | null>(null);
  const send = async (e: Event) => {
    e.preventDefault();
    props.onError(null);
    try {
      setSent((await accounts.emailLink(email)).minutes);
    } catch (err) {
      props.onError(problem(err, ""));
    }
  };
  if (sent !== null) return <p class="message good" data-testid="email-sent">{t("account.email_sent", { minutes: sent })}</p>;
  return (
    <form class="email-signin" onSubmit={send} data-testid="email-form">
      <label>{t("account.email_label")} <input type="email" name="email" required maxLength={254} autocomplete="email" value={email}
        onInput={(e) => setEmail((e.target as HTMLInputElement).value)} /></label>
      <button type="submit">{t("account.email_send")}</button>
    </form>
  );
}

export function SignInPage(): JSX.Element {
  const [offered, setOffered] = useState<SigninOptions | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    accounts.options().then(setOffered, (err) => setError(problem(err, "")));
  }, []);
  const passkey = async () => {
    setError(null);
    try {
      await player(); // the browser's guest cookie is settled before the sign-in replaces it
      await accounts.passkeySignIn();
      home();
    } catch (err) {
      setError(problem(err, t("account.passkey_cancelled")));
    }
  };
  return (
    <div class="page account" data-testid="signin-page">
      <h1>{t("account.signin_title")}</h1>
      <p>{t("account.signin_intro")}</p>
      {offered?.passkey && passkeysWork() && <button type="button" onClick={passkey} data-testid="passkey-signin">{t("account.passkey_signin")}</button>}
      {offered?.email && <EmailForm onError={setError} />}
      {offered && !offered.email && !offered.passkey && <p class="muted">{t("account.none_offered")}</p>}
      {error && <div class="message bad" data-testid="signin-error">{error}</div>}
      <p><a href="#/">{t("account.to_games")}</a></p>
    </div>
  );
}

export function LinkPage(props: { token: string }): JSX.Element {
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // the secret leaves the address bar (and this page's history entry) at once
    history.replaceState(null, "", `${location.pathname}#/signin/link`);
    // the first visit's guest (App asks for it) is made before the link signs this browser in:
    // its cookie, set later, would undo the sign-in
    player().then(() => accounts.openLink(props.token)).then((now) => {
      signedIn(now); // the pages opened from here (the admin page, the account menu) know it
      setMe(now);
    }, (err) => setError(problem(err, "")));
  }, [props.token]);
  return (
    <div class="page account" data-testid="link-page">
      <h1>{t("account.signin_title")}</h1>
      {!me && !error && <p>{t("account.link_opening")}</p>}
      {me && <p class="message good" data-testid="signed-in">{t("account.signed_in", { name: me.name ?? me.email ?? t("account.unnamed") })}</p>}
      {me?.role === "admin" && (
        <p data-testid="signed-in-admin">{t("account.you_are_admin")} <a href="#/admin" data-testid="landing-admin-link">{t("admin.title")}</a></p>
      )}
      {error && <div class="message bad" data-testid="link-error">{error}</div>}
      {error && <p><a href="#/signin">{t("account.ask_again")}</a></p>}
      <p><a href="#/">{t("account.to_games")}</a></p>
    </div>
  );
}

export function AccountPage(): JSX.Element {
  const [acct, setAcct] = useState<Account | null>(null);
  const [offered, setOffered] = useState<SigninOptions | null>(null);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    await player(); // the browser's player: made now if this is its first visit
    const a = await accounts.account();
    setAcct(a);
    setName(a.me.name ?? "");
  };
  const run = (work: () => Promise<unknown>, cancelled = "") => async () => {
    setError(null);
    try {
      await work();
      await load();
    } catch (err) {
      setError(problem(err, cancelled));
    }
  };
  useEffect(() => {
    run(load)();
    accounts.options().then(setOffered, () => setOffered(null));
  }, []);
  if (!acct) return <div class="page account">{error ? <div class="message bad">{error}</div> : t("home.loading")}</div>;
  const me = acct.me;
  const rename = (e: Event) => {
    e.preventDefault();
    run(() => accounts.rename(name.trim()))();
  };
  const signOut = async () => {
    if (!me.account && !confirm(t("account.signout_guest_confirm"))) return;
    await run(() => accounts.signOut().then(home))();
  };
  const remove = async () => {
    if (!confirm(t("account.delete_confirm"))) return;
    await run(() => accounts.deleteAccount().then(home))();
  };
  return (
    <div class="page account" data-testid="account-page">
      <h1>{t("account.title")}</h1>
      <p data-testid="account-state">{me.account ? (me.email ? t("account.email", { email: me.email }) : t("account.has_account"))
        : offered && !offered.email && !offered.passkey ? t("account.guest_only") : t("account.guest")}</p>
      <p class="muted" data-testid="player-id">{t("account.player_id", { id: me.id })}</p>
      <form class="panel" onSubmit={rename}>
        <label>{t("account.name")} <input name="player-name" maxLength={40} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
        <button type="submit" disabled={!name.trim()}>{t("account.save")}</button>
      </form>
      {me.account && <label class="panel switch">
        <input type="checkbox" data-testid="listed-switch" checked={me.listed}
          onChange={(e) => run(() => accounts.setListed((e.target as HTMLInputElement).checked))()} />{" "}
        {t("account.listed")}
      </label>}
      {me.account && me.listed && <p class="muted"><a href={`#/player/${encodeURIComponent(me.id)}`} data-testid="profile-link">{t("account.profile_link")}</a></p>}
      <section class="panel" data-testid="passkeys">
        <h2>{t("account.passkeys")}</h2>
        {acct.passkeys.length === 0 && <p class="muted">{t("account.no_passkeys")}</p>}
        <ul>
          {acct.passkeys.map((k) => (
            <li key={k.id} data-passkey={k.id}><bdi>{k.name}</bdi>{" "}
              <button type="button" onClick={run(() => accounts.removePasskey(k.id))}>{t("account.remove")}</button></li>
          ))}
        </ul>
        {offered?.passkey && passkeysWork() && (
          <button type="button" data-testid="add-passkey"
            onClick={run(() => accounts.addPasskey(navigator.platform || ""), t("account.passkey_cancelled"))}>{t("account.add_passkey")}</button>
        )}
      </section>
      {!me.email && offered?.email && <section class="panel"><h2>{t("account.add_email")}</h2><EmailForm onError={setError} /></section>}
      <section class="panel" data-testid="push-notices">
        <h2>{t("account.notifications")}</h2>
        <PushNotices onAccount />
      </section>
      <EmailNotices />
      <section class="panel" data-testid="devices">
        <h2>{t("account.devices")}</h2>
        <ul>
          {acct.devices.map((d) => (
            <li key={d.id} data-device={d.id}><bdi>{d.label}</bdi>{d.current && <b> · {t("account.this_device")}</b>}
              <span class="muted" data-testid="device-used"> · {t("account.device_used", { since: dateOnly(d.created_at), last: dateOnly(d.last_used_at) })}</span>{" "}
              {!d.current && <button type="button" onClick={run(() => accounts.removeDevice(d.id))}>{t("account.remove")}</button>}</li>
          ))}
        </ul>
      </section>
      {error && <div class="message bad" data-testid="account-error">{error}</div>}
      <p class="actions">
        <button type="button" onClick={signOut} data-testid="sign-out">{t("account.sign_out")}</button>{" "}
        <button type="button" class="danger" onClick={remove} data-testid="delete-account">{t("account.delete")}</button>
      </p>
      <p><a href="#/">{t("account.to_games")}</a></p>
    </div>
  );
}

/** The account menu: sign in (where this server offers a way this browser has, to a player
 * without an account), the account page, and the admin page for an admin. A first visit makes
 * its guest where the client bootstraps it, not here. */
export function AccountBar(): JSX.Element {
  const [me, setMe] = useState<Me | null>(null);
  const [canSignIn, setCanSignIn] = useState(false);
  useEffect(() => {
    player().then(setMe).catch(() => undefined);
    signinOffered().then(setCanSignIn);
  }, []);
  const role = me?.role ?? null;
  return (
    <nav class="account-bar" data-testid="account-bar">
      {!me?.account && canSignIn && <a href="#/signin" data-testid="signin-link">{t("account.signin_title")}</a>}
      <a href="#/account" data-testid="account-link">{t("account.title")}</a>
      {role === "admin" && <a href="#/admin" data-testid="admin-link">{t("admin.title")}</a>}
    </nav>
  );
}
