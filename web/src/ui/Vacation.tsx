// Vacation on the desk (issue 27, docs/REACH.md): the player books whole days away in advance;
// the server stops their correspondence clocks then. The rules (allowance, earliest day,
// overlaps) are the server's: this panel shows what it says and its refusals in words.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "../api/client";
import type { Vacations } from "../api/types";
import { lang, t } from "../i18n";
import { useBusy } from "./useBusy";

/** A UTC day ("2027-03-01") in the player's language. */
export function dayText(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(lang(), { timeZone: "UTC", dateStyle: "medium" });
}

function tomorrow(): string {
  return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
}

export function Vacation(): JSX.Element | null {
  const [data, setData] = useState<Vacations | null>(null);
  const [start, setStart] = useState(tomorrow());
  const [days, setDays] = useState(7);
  const { busy, error, run } = useBusy();
  const load = () => api.vacations().then(setData);
  useEffect(() => {
    load().catch(() => undefined); // not signed in, or the server away: no panel
  }, []);
  if (!data || data.days_per_year <= 0) return null;
  return (
    <details class="desk-vacation" data-testid="vacation">
      <summary>{t("vacation.title")}</summary>
      <p class="muted">{t("vacation.explain")}</p>
      <p data-testid="vacation-left">
        {data.left.map((y) => t("vacation.left", { year: y.year, days: y.days })).join(" · ")}
      </p>
      {data.vacations.length > 0 && (
        <ul data-testid="vacation-list">
          {data.vacations.map((v) => (
            <li key={v.id} data-vacation={v.id}>
              {t("vacation.entry", { start: dayText(v.start), days: v.days, back: dayText(v.back) })}{" "}
              {v.started ? <span class="muted">{t("vacation.under_way")}</span> : (
                <button type="button" class="small" disabled={busy} data-testid={`vacation-cancel-${v.id}`}
                  onClick={() => run(async () => { await api.cancelVacation(v.id); await load(); })}>
                  {t("vacation.cancel")}</button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={(e) => {
        e.preventDefault();
        void run(async () => { await api.takeVacation(start, days); await load(); });
      }}>
        <label>{t("vacation.start")} <input type="date" name="vacation-start" min={tomorrow()} value={start} required
          onInput={(e) => setStart((e.target as HTMLInputElement).value)} /></label>{" "}
        <label>{t("vacation.days")} <input type="number" name="vacation-days" min="1" max="366" step="1" value={days} required
          onInput={(e) => setDays(Number((e.target as HTMLInputElement).value))} /></label>{" "}
        <button type="submit" disabled={busy} data-testid="vacation-take">{t("vacation.take")}</button>
      </form>
      {error && <div class="message bad" data-testid="vacation-error">{error}</div>}
    </details>
  );
}
