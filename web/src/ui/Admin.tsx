import { dateTimeZone, isolate, num, t } from "../i18n";
// The admin page (#/admin, issue 25), for a player the server made an admin (`brass admin
// grant`): the banner every page shows, who may create games, the newest backup, this
// instance's figures and every instance's, every game (filtered, paged; end or delete one after a confirm) and the
// chat of every game (delete a line, mute a seat or the spectators, and let whoever is muted
// speak again). The server decides everything; this page only asks and shows.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { admin, banner, type GameQuery } from "../api/admin";
import { ApiError } from "../api/client";
import { reachPlayer } from "../api/player";
import { backoff } from "../logic/backoff";
import { PLAYER_NAMES, seatName } from "../logic/names";
import { BANNER_CHANGED } from "./SiteBanner";
import type { AdminChat, AdminGames, AdminMuted, Backup, Banner, Figures, InstanceList, Policy } from "../api/types";

const PAGE = 20;
const FIGURES_MS = 10_000;
const POLICIES: [Policy, () => string][] = [
  ["anyone", () => t("admin.policy_anyone")], ["accounts", () => t("admin.policy_accounts")],
  ["invite", () => t("admin.policy_invite")]];
const STATUSES: [string, () => string][] = [
  ["", () => t("admin.any")], ["waiting", () => t("status.waiting")], ["running", () => t("status.running")],
  ["finished", () => t("status.finished")], ["expired", () => t("status.expired")], ["cancelled", () => t("status.cancelled")]];
const HAVING: [string, () => string][] = [["", () => t("admin.any")], ["true", () => t("admin.with")], ["false", () => t("admin.without")]];

const failed = (err: unknown) => (err instanceof Error ? err.message : String(err));

function bytes(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i += 1;
  }
  return `${num(Math.round(n * 10) / 10)} ${units[i]}`;
}

function Select(props: { label: string; value: string; options: [string, () => string][]; onChange: (v: string) => void; "data-testid": string }): JSX.Element {
  return (
    <label>{props.label}{" "}
      <select data-testid={props["data-testid"]} value={props.value} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}>
        {props.options.map(([v, words]) => <option key={v} value={v}>{words()}</option>)}
      </select>
    </label>
  );
}

function BannerCard(props: { onError: (e: string | null) => void }): JSX.Element {
  const [text, setText] = useState("");
  const [saved, setSaved] = useState<Banner | null>(null);
  useEffect(() => {
    banner().then((b) => {
      setSaved(b);
      setText(b.text ?? "");
    }).catch(() => undefined);
  }, []);
  const save = async (value: string | null) => {
    props.onError(null);
    try {
      const b = await admin.setBanner(value);
      setSaved(b);
      setText(b.text ?? "");
      window.dispatchEvent(new Event(BANNER_CHANGED));
    } catch (err) {
      props.onError(failed(err));
    }
  };
  return (
    <section class="panel admin-card" data-testid="admin-banner">
      <h2>{t("admin.banner")}</h2>
      <p class="muted">{t("admin.banner_help")}</p>
      {/* one line: the new lines typed become spaces when it is saved */}
      <textarea maxLength={280} rows={2} value={text} aria-label={t("admin.banner")} data-testid="banner-text"
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
      <p class="admin-actions">
        <span class="muted">{t("admin.chars_left", { left: 280 - text.length })}</span>{" "}
        <button type="button" data-testid="banner-save" disabled={!text.trim()} onClick={() => save(text.replace(/\s+/g, " ").trim())}>{t("admin.save")}</button>{" "}
        <button type="button" data-testid="banner-clear" disabled={!saved?.text} onClick={() => save(null)}>{t("admin.clear")}</button>
      </p>
    </section>
  );
}

function PolicyCard(props: { onError: (e: string | null) => void }): JSX.Element {
  const [policy, setPolicy] = useState<Policy | null>(null);
  const [code, setCode] = useState<string | null>(null);
  useEffect(() => {
    admin.policy().then((p) => setPolicy(p.policy)).catch((err) => props.onError(failed(err)));
  }, []);
  const change = async (value: string) => {
    props.onError(null);
    try {
      const set = await admin.setPolicy(value as Policy);
      setPolicy(set.policy);
      setCode(set.code ?? null);
    } catch (err) {
      props.onError(failed(err));
    }
  };
  return (
    <section class="panel admin-card" data-testid="admin-policy">
      <h2>{t("admin.policy")}</h2>
      {policy && <Select label={t("admin.policy_label")} value={policy} options={POLICIES} onChange={change} data-testid="policy-select" />}
      {code && <p class="message good" data-testid="invite-code">{t("admin.invite_code")} <code>{code}</code></p>}
      <p class="muted">{t("admin.policy_help")}</p>
    </section>
  );
}

function BackupCard(): JSX.Element {
  const [b, setB] = useState<Backup | null>(null);
  useEffect(() => {
    admin.backup().then(setB).catch(() => undefined);
  }, []);
  return (
    <section class="panel admin-card" data-testid="admin-backup">
      <h2>{t("admin.backup")}</h2>
      {b && !b.present && <p>{t("admin.no_backup_folder", { folder: isolate(b.folder) })}</p>}
      {b && b.present && !b.latest && <p>{t("admin.no_backup_yet", { folder: isolate(b.folder) })}</p>}
      {b && b.latest && b.time && (
        <p data-testid="backup-latest">{t("admin.backup_latest", { time: dateTimeZone(b.time), size: bytes(b.size ?? 0), count: b.count })}</p>
      )}
    </section>
  );
}

/** Sent when the admin ended or deleted a game here: the figures and the chat read again. */
const ADMIN_CHANGED = "brass-admin-changed";

/** `load` now, every FIGURES_MS, and after each of the admin's changes (`ADMIN_CHANGED`). */
function useReloaded(load: () => void, deps: unknown[]): void {
  useEffect(() => {
    load();
    const timer = setInterval(load, FIGURES_MS);
    addEventListener(ADMIN_CHANGED, load);
    return () => {
      clearInterval(timer);
      removeEventListener(ADMIN_CHANGED, load);
    };
  }, deps);
}

function FiguresCard(): JSX.Element {
  const [f, setF] = useState<Figures | null>(null);
  useReloaded(() => admin.figures().then(setF).catch(() => undefined), []);
  const rows: [string, string][] = f ? [
    [t("admin.fig_instance"), f.instance], [t("admin.fig_games"), num(f.games_running)], [t("admin.fig_sockets"), num(f.sockets)],
    [t("admin.fig_moves"), t("admin.fig_moves_value", { moves: f.moves, rate: f.moves_per_minute })],
    [t("admin.fig_errors"), num(f.errors)], [t("admin.fig_memory"), f.memory_bytes === null ? "—" : bytes(f.memory_bytes)],
    [t("admin.fig_files"), f.open_files === null ? "—" : num(f.open_files)], [t("admin.fig_queue"), num(f.worker_queue)],
    [t("admin.fig_analysed"), num(f.analysed_moves)],
    [t("admin.fig_uptime"), f.uptime_seconds === null ? "—" : t("admin.minutes", { minutes: Math.floor(f.uptime_seconds / 60) })],
  ] : [];
  return (
    <section class="panel admin-card" data-testid="admin-figures">
      <h2>{t("admin.figures")}</h2>
      <p class="muted">{t("admin.figures_help")}</p>
      <dl class="admin-figures">{rows.map(([k, v]) => <div key={k}><dt>{k}</dt><dd>{v}</dd></div>)}</dl>
    </section>
  );
}

/** Every instance's figures as each last wrote them (this one's counted now): behind a proxy a
 * page reaches one instance, and the figures above are that one's alone. */
function InstancesCard(): JSX.Element {
  const [list, setList] = useState<InstanceList | null>(null);
  useReloaded(() => admin.instances().then(setList).catch(() => undefined), []);
  const heard = (e: InstanceList["instances"][number]) => e.this ? t("admin.inst_this")
    : e.silent ? t("admin.inst_silent", { minutes: Math.floor(e.seconds_ago / 60) })
      : t("admin.inst_seen", { seconds: Math.round(e.seconds_ago) });
  return (
    <section class="panel admin-card admin-wide" data-testid="admin-instances">
      <h2>{t("admin.instances")}</h2>
      <p class="muted">{t("admin.instances_help", { seconds: list?.report_every ?? 15 })}</p>
      <div class="admin-table-wrap">
        <table class="admin-table">
          <thead><tr><th>{t("admin.inst_name")}</th><th>{t("admin.inst_state")}</th><th>{t("admin.fig_games")}</th>
            <th>{t("admin.fig_sockets")}</th><th>{t("admin.fig_moves")}</th><th>{t("admin.fig_memory")}</th><th>{t("admin.fig_uptime")}</th></tr></thead>
          <tbody>
            {list?.instances.map((e) => {
              const f = e.figures;
              return (
                <tr key={f.instance} data-testid="instance-row">
                  <td><bdi>{f.instance}</bdi></td><td data-testid="instance-heard">{e.silent ? <strong>{heard(e)}</strong> : heard(e)}</td><td>{num(f.games_running)}</td>
                  <td>{num(f.sockets)}</td><td>{t("admin.fig_moves_value", { moves: f.moves, rate: f.moves_per_minute })}</td>
                  <td>{f.memory_bytes === null ? "—" : bytes(f.memory_bytes)}</td>
                  <td>{f.uptime_seconds === null ? "—" : t("admin.minutes", { minutes: Math.floor(f.uptime_seconds / 60) })}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function GamesCard(props: { onError: (e: string | null) => void }): JSX.Element {
  const [q, setQ] = useState<GameQuery>({ limit: PAGE, offset: 0 });
  const [page, setPage] = useState<AdminGames | null>(null);
  const [reload, setReload] = useState(0);
  useEffect(() => {
    admin.games(q).then(setPage).catch((err) => props.onError(failed(err)));
  }, [q, reload]);
  const filter = (change: Partial<GameQuery>) => setQ({ ...q, ...change, offset: 0 });
  const act = async (what: () => Promise<unknown>, question: string) => {
    if (!confirm(question)) return;
    props.onError(null);
    try {
      await what();
    } catch (err) {
      props.onError(err instanceof ApiError ? err.message : failed(err));
    }
    setReload((k) => k + 1);
    dispatchEvent(new Event(ADMIN_CHANGED));
  };
  const offset = q.offset ?? 0;
  return (
    <section class="panel admin-card admin-wide" data-testid="admin-games">
      <h2>{t("admin.games")}</h2>
      <form class="admin-filters" onSubmit={(e) => e.preventDefault()}>
        <Select label={t("admin.status")} value={q.status ?? ""} options={STATUSES} onChange={(v) => filter({ status: v })} data-testid="filter-status" />
        <label>{t("admin.name_contains")} <input type="search" maxLength={80} data-testid="filter-name" value={q.name ?? ""}
          onInput={(e) => filter({ name: (e.target as HTMLInputElement).value })} /></label>
        <label>{t("admin.created_since")} <input type="date" data-testid="filter-since" value={q.since?.slice(0, 10) ?? ""}
          onInput={(e) => { const d = (e.target as HTMLInputElement).value; filter({ since: d ? `${d}T00:00:00Z` : undefined }); }} /></label>
        <Select label={t("admin.people")} value={q.humans ?? ""} options={HAVING} onChange={(v) => filter({ humans: v })} data-testid="filter-humans" />
        <Select label={t("admin.bots")} value={q.bots ?? ""} options={HAVING} onChange={(v) => filter({ bots: v })} data-testid="filter-bots" />
      </form>
      <div class="admin-table-wrap">
        <table class="admin-table">
          <thead><tr><th>{t("admin.game")}</th><th>{t("admin.status")}</th><th>{t("admin.seats")}</th><th>{t("admin.created")}</th><th /></tr></thead>
          <tbody>
            {page?.games.map((g) => (
              <tr key={g.id} data-game={g.id}>
                <td><a href={g.status === "finished" ? `#/replay/${g.id}` : `#/game/${g.id}`}><bdi>{g.name}</bdi></a>
                  {" "}<code class="muted game-id" data-testid="game-id">{g.id}</code></td>
                <td data-testid="game-status">{t(`status.${g.status}`)}</td>
                <td>{g.seats.map((s) => (!s.taken ? "—" : s.bot ? `${s.name ?? t("admin.bot")}${t("lobby.bot")}` : s.name ?? PLAYER_NAMES[s.seat])).join(", ")}</td>
                <td>{dateTimeZone(g.created_at)}</td>
                <td class="admin-row-actions">
                  {(g.status === "waiting" || g.status === "running") && (
                    <button type="button" data-testid="end-game" onClick={() => act(() => admin.end(g.id), t("admin.confirm_end", { name: g.name }))}>{t("admin.end")}</button>
                  )}{" "}
                  <button type="button" class="danger" data-testid="delete-game" onClick={() => act(() => admin.remove(g.id), t("admin.confirm_delete", { name: g.name }))}>{t("admin.delete")}</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page && !page.games.length && <p class="muted">{t("admin.no_games")}</p>}
      {(offset > 0 || page?.next_offset != null) && (
        <p class="admin-pages">
          {offset > 0 && <button type="button" onClick={() => setQ({ ...q, offset: Math.max(0, offset - PAGE) })}>{t("desk.newer")}</button>}{" "}
          {page?.next_offset != null && <button type="button" data-testid="games-next" onClick={() => setQ({ ...q, offset: page.next_offset ?? 0 })}>{t("desk.older")}</button>}
        </p>
      )}
    </section>
  );
}

/** Per game, whom its chat has muted (a seat by its player's name, the spectators), each with
 * a button that lets them speak again. `reload` changes when a mute may have changed. */
function MutedList(props: { reload: number; act: (what: () => Promise<unknown>, question: string | null) => void }): JSX.Element {
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<AdminMuted | null>(null);
  useEffect(() => {
    admin.muted(offset, PAGE).then(setPage).catch(() => undefined);
  }, [offset, props.reload]);
  const allow = (gameId: string, seat: number | null) => props.act(() => admin.mute(gameId, seat, false), null);
  return (
    <div class="admin-muted" data-testid="admin-muted">
      <h3>{t("chat.muted")}</h3>
      {page && !page.games.length && <p class="muted">{t("admin.no_muted")}</p>}
      <ul>
        {page?.games.map((g) => (
          <li key={g.game_id} data-muted-game={g.game_id}>
            <a href={`#/game/${g.game_id}`}><bdi>{g.game_name}</bdi></a>:{" "}
            {g.seats.map((s) => (
              <span key={s.seat} class="admin-muted-one" data-muted-seat={s.seat}>
                <bdi>{seatName(s) ?? PLAYER_NAMES[s.seat]}</bdi>{" "}
                <button type="button" data-testid="allow-speak" onClick={() => allow(g.game_id, s.seat)}>{t("admin.allow_speak")}</button>
              </span>
            ))}
            {g.spectators && (
              <span class="admin-muted-one" data-muted-seat="spectators">
                {t("chat.spectators")}{" "}
                <button type="button" data-testid="allow-speak" onClick={() => allow(g.game_id, null)}>{t("admin.allow_speak")}</button>
              </span>
            )}
          </li>
        ))}
      </ul>
      {(offset > 0 || page?.next_offset != null) && (
        <p class="admin-pages">
          {offset > 0 && <button type="button" onClick={() => setOffset(Math.max(0, offset - PAGE))}>{t("desk.newer")}</button>}{" "}
          {page?.next_offset != null && <button type="button" onClick={() => setOffset(page.next_offset ?? 0)}>{t("desk.older")}</button>}
        </p>
      )}
    </div>
  );
}

function ChatCard(props: { onError: (e: string | null) => void }): JSX.Element {
  const [before, setBefore] = useState<(number | null)[]>([null]); // the pages walked so far
  const [page, setPage] = useState<AdminChat | null>(null);
  const [reload, setReload] = useState(0);
  const at = before[before.length - 1];
  useReloaded(() => admin.chat(at, PAGE).then(setPage).catch((err) => props.onError(failed(err))), [at, reload]);
  const act = async (what: () => Promise<unknown>, question: string | null) => {
    if (question !== null && !confirm(question)) return; // letting speak again needs no confirm
    props.onError(null);
    try {
      await what();
    } catch (err) {
      props.onError(failed(err));
    }
    setReload((k) => k + 1);
  };
  return (
    <section class="panel admin-card admin-wide" data-testid="admin-chat">
      <h2>{t("admin.chat")}</h2>
      <div class="admin-table-wrap">
        <table class="admin-table">
          <thead><tr><th>{t("admin.game")}</th><th>{t("admin.sender")}</th><th>{t("admin.line")}</th><th>{t("admin.time")}</th><th /></tr></thead>
          <tbody>
            {page?.lines.map((l) => (
              <tr key={l.id} data-line={l.id}>
                <td><a href={`#/game/${l.game_id}`}><bdi>{l.game_name}</bdi></a></td>
                <td><bdi>{l.name}</bdi>{l.spectator && <span class="muted"> · {t("admin.spectator")}</span>}</td>
                <td class="admin-line"><bdi>{l.text}</bdi></td>
                <td>{dateTimeZone(l.time)}</td>
                <td class="admin-row-actions">
                  <button type="button" class="danger" data-testid="delete-line"
                    onClick={() => act(() => admin.deleteLine(l.game_id, l.id), t("admin.confirm_delete_line"))}>{t("admin.delete")}</button>{" "}
                  <button type="button" data-testid="mute-sender"
                    onClick={() => act(() => admin.mute(l.game_id, l.seat, true), l.spectator ? t("admin.confirm_mute_spectators") : t("admin.confirm_mute_seat", { name: l.name }))}>
                    {l.spectator ? t("admin.mute_spectators") : t("admin.mute_seat")}</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page && !page.lines.length && <p class="muted">{t("admin.no_chat")}</p>}
      {(before.length > 1 || page?.next != null) && (
        <p class="admin-pages">
          {before.length > 1 && <button type="button" onClick={() => setBefore(before.slice(0, -1))}>{t("desk.newer")}</button>}{" "}
          {page?.next != null && <button type="button" data-testid="chat-next" onClick={() => setBefore([...before, page.next ?? null])}>{t("desk.older")}</button>}
        </p>
      )}
      <MutedList reload={reload} act={act} />
    </section>
  );
}

/** Why the server could not say who asks, when that may pass: its database out of reach, the
 * server itself (no answer, a proxy's 5xx, an error page that is not JSON), or too many
 * requests from this address for now (a 429: it said "only admins" before); null for a
 * refusal. */
export function outOfReach(err: unknown): "database" | "server" | "busy" | null {
  if (!(err instanceof ApiError)) return "server";
  if (err.code === "unavailable") return "database";
  if (err.status === 429) return "busy";
  return err.code === "network" || err.status >= 500 ? "server" : null;
}

export function AdminPage(): JSX.Element {
  const [role, setRole] = useState<string | null | undefined>(undefined);
  const [away, setAway] = useState<"database" | "server" | "busy" | null>(null); // the last ask's
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    document.title = t("admin.title");
    // asked again, with backoff, while the server or its database is out of reach: an admin
    // was told the page is not theirs when Postgres was down
    let live = true;
    let tries = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = () => reachPlayer().then((me) => {
      if (!live) return;
      setAway(null);
      setRole(me.role ?? null);
    }).catch((err) => {
      if (!live) return;
      const why = outOfReach(err);
      setAway(why);
      if (why) timer = setTimeout(ask, backoff(tries++));
      else setRole(null);
    });
    ask();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);
  if (role === undefined) {
    return away ? <div class="page" role="status" data-testid="admin-unreachable">
      {away === "database" ? t("conn.unreachable") : away === "busy" ? t("conn.busy") : t("conn.no_server")}</div>
      : <div class="page">{t("game.connecting")}</div>;
  }
  if (role !== "admin") {
    return <div class="page" data-testid="admin-refused"><h1>{t("admin.title")}</h1><p>{t("admin.only_admins")}</p><a href="#/">{t("game.back")}</a></div>;
  }
  return (
    <div class="page admin-page" data-testid="admin-page">
      <p><a href="#/">{t("game.back")}</a></p>
      <h1>{t("admin.title")}</h1>
      {error && <div class="message bad" role="alert" data-testid="admin-error">{error}</div>}
      <div class="admin-grid">
        <BannerCard onError={setError} />
        <PolicyCard onError={setError} />
        <BackupCard />
        <FiguresCard />
        <InstancesCard />
        <GamesCard onError={setError} />
        <ChatCard onError={setError} />
      </div>
    </div>
  );
}
