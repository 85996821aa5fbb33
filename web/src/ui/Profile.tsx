import { num, t } from "../i18n";
// A listed player's public page (#/player/{id}): rating with a chart of its history (plain SVG),
// games, wins, average VP, favourite industries and the recent listed games, each linked to
// its replay. The server says 404 for a player whose profile is not listed.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "../api/client";
import type { Profile } from "../api/types";
import { rating } from "./EndScreen";

const W = 320;
const H = 120;
const PAD = 8;

/** Where each rating stands in the chart (SVG units, y down): oldest on the left, the lowest
 * rating at the bottom edge less the padding, the highest at the top (a flat history: the
 * bottom). */
export function chartPoints(points: number[]): [number, number][] {
  const low = Math.min(...points);
  const span = Math.max(...points) - low || 1;
  const last = Math.max(1, points.length - 1);
  return points.map((v, i) => [PAD + (i * (W - 2 * PAD)) / last, H - PAD - ((v - low) * (H - 2 * PAD)) / span]);
}

/** The rating after each rated game, as a line (oldest on the left). */
export function RatingChart({ points }: { points: number[] }): JSX.Element | null {
  if (points.length < 2) return null;
  const low = Math.min(...points);
  const high = Math.max(...points);
  const at = chartPoints(points);
  const line = at.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  return (
    <figure class="rating-chart" data-testid="rating-chart">
      <figcaption class="panel-title">{t("profile.chart")}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t("profile.chart_label", { low: rating(low), high: rating(high), games: points.length })}>
        <polyline points={line} fill="none" stroke="currentColor" stroke-width="2" />
        {at.map(([x, y], i) => <circle key={i} cx={x} cy={y} r="2.5" fill="currentColor" />)}
      </svg>
    </figure>
  );
}

export function ProfileScreen({ id }: { id: string }): JSX.Element {
  const [profile, setProfile] = useState<Profile | null>(null);
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    api.player(id).then(setProfile).catch((err) => setMissing(err instanceof ApiError && err.status === 404));
  }, [id]);
  useEffect(() => {
    document.title = profile ? t("profile.title", { name: profile.name, app: t("app.short") }) : t("app.title");
  });
  if (missing) return <div class="page"><h2>{t("profile.not_found")}</h2><a href="#/">{t("game.back")}</a></div>;
  if (!profile) return <div class="page">{t("game.connecting")}</div>;
  const r = profile.rating;
  return (
    <div class="page profile" data-testid="profile">
      <a href="#/" class="home-link">{t("app.short")}</a>
      <h2><bdi>{profile.name}</bdi></h2>
      <dl>
        <dt>{t("profile.rating")}</dt>
        <dd data-testid="profile-rating">
          {r ? rating(r.ordinal) : t("profile.unrated")}
          {r?.provisional && <span class="badge">{t("end.provisional")}</span>}
        </dd>
        <dt>{t("profile.games")}</dt><dd>{num(profile.games)}</dd>
        <dt>{t("profile.wins")}</dt><dd>{num(profile.wins)}</dd>
        <dt>{t("profile.average_vp")}</dt><dd>{profile.average_vp === null ? "–" : num(Math.round(profile.average_vp))}</dd>
        <dt>{t("profile.favourite")}</dt>
        <dd>{profile.favourite_industries.map((i) => t(`industry.${i}`)).join(" · ") || "–"}</dd>
      </dl>
      <RatingChart points={profile.history.map((p) => p.ordinal)} />
      {profile.recent.length > 0 && (
        <section>
          <div class="panel-title">{t("profile.recent")}</div>
          <ul data-testid="profile-recent">
            {profile.recent.map((g) => (
              <li key={g.id}>
                <a href={`#/replay/${encodeURIComponent(g.id)}`}><bdi>{g.name}</bdi></a>{" "}
                {g.place === null ? t("profile.vp", { vp: g.vp })
                  : t("profile.place", { place: g.place, players: g.players, vp: g.vp })}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
