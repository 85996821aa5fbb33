// The whole effect of the chosen move, before Confirm: the server's `preview` answer is the
// engine's own `move` event for it (what the log will then store), so every figure here is one
// the engine computed: the tile and what it is worth, cubes placed and sold, flips, sales and
// their merchant bonus, each resource with its source, and the money, whose lines add up to the
// total shown.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { GameSocket } from "../api/client";
import type { Action, MoveEvent, PlayerView } from "../api/types";
import { actionKey } from "../logic/choose";
import { INDUSTRY_NAME, linkName, locationName, money, PLAYER_NAMES, tileName } from "../logic/names";
import { supplyWords } from "../logic/words";

/** The preview of `action` at `version`, asked over the socket; null until it arrives. */
export function usePreview(socket: GameSocket | null, action: Action | null, version: number): MoveEvent | null {
  const [got, setGot] = useState<{ key: string; version: number; effect: MoveEvent } | null>(null);
  const key = action ? actionKey(action) : null;
  useEffect(() => {
    if (!socket) return;
    return socket.subscribe((m) => {
      if (m.type === "preview" && m.effect.type === "move")
        setGot({ key: actionKey(m.action), version: m.version, effect: m.effect });
    });
  }, [socket]);
  useEffect(() => {
    if (socket && action) socket.preview(action, version);
  }, [socket, key, version]);
  return got && got.key === key && got.version === version ? got.effect : null;
}

/** "1 coal cube", "3 coal cubes": this panel's words are English until the catalogues have them. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export interface MoneyLine {
  label: string;
  /** £: negative is paid, positive received */
  amount: number;
}

export interface PreviewText {
  /** what the move does, in order */
  what: string[];
  /** the resources it takes, each with its source */
  resources: string[];
  /** the money, line by line; `total` is their sum */
  money: MoneyLine[];
  total: number;
  /** VP and income the move changes now (for the mover) */
  gains: string[];
}

const COST_LABEL: Record<string, string> = {
  build: "Cost of the tile",
  network: "Cost of the link",
  develop: "Cost of developing",
  sell: "Cost",
  loan: "Cost",
  scout: "Cost",
  pass: "Cost",
};

function whose(owner: number, seat: number): string {
  return owner === seat ? "your" : `${PLAYER_NAMES[owner]}'s`;
}

/** The preview in words and figures, from the engine's move event. */
export function previewText(e: MoveEvent): PreviewText {
  const a = e.action as Action;
  const what: string[] = [];
  const gains: string[] = [];
  const p = e.placed;
  if (p) {
    what.push(`${tileName(p.industry, p.level)} in ${locationName(p.location)} (slot ${p.slot + 1})`);
    what.push(`When flipped: ${p.vp} VP, +${plural(p.income, "income space")}; ${plural(p.link_icons, "link icon")} for adjacent links`);
    if (p.resources > 0) {
      const res = p.industry === "brewery" ? "beer barrel" : p.industry === "iron" ? "iron cube" : "coal cube";
      what.push(`Places ${plural(p.resources, res)} on it`);
    }
  }
  for (const r of e.removed) what.push(`Replaces ${whose(r.owner, e.seat)} ${tileName(r.industry, r.level)}`);
  if (e.to_market)
    what.push(`Sells ${e.to_market.count} ${e.to_market.resource} to the market at once for ${money(e.to_market.received)}`);
  for (const l of e.links) what.push(`${l.kind === "rail" ? "Rail" : "Canal"} link ${linkName(l.id)}`);
  for (const d of e.developed) what.push(`Develops away ${tileName(d.industry, d.level)} from your mat`);
  for (const s of e.sales) {
    let line = `Sells ${tileName(s.industry, s.level)} in ${locationName(s.location)} to ${locationName(s.merchant)}`;
    const b = s.bonus;
    if (b?.kind === "income") line += ` · merchant bonus +${plural(b.amount, "income space")}`;
    else if (b?.kind === "vp") line += ` · merchant bonus ${b.amount} VP`;
    else if (b?.kind === "money") line += ` · merchant bonus ${money(b.amount)}`;
    else if (b?.kind === "develop") line += b.develop ? ` · merchant bonus: develop ${INDUSTRY_NAME[b.develop]}` : " · merchant bonus declined";
    what.push(line);
  }
  for (const f of e.flipped)
    what.push(`Flips ${whose(f.owner, e.seat)} ${tileName(f.industry, f.level)} in ${locationName(f.location)}: +${plural(f.income, "income space")} for ${f.owner === e.seat ? "you" : PLAYER_NAMES[f.owner]}`);
  if (a.kind === "pass") what.push("Pass (discard a card)");
  if (a.kind === "loan") what.push(`Take a loan of ${money(e.received)} (your income drops)`);
  if (a.kind === "scout") what.push("Discard 3 cards, take a wild location and a wild industry card");

  const resources = e.supplies.map((s) => supplyWords(s.resource, s, e.seat));

  const lines: MoneyLine[] = [];
  const market = e.supplies.filter((s) => s.source === "market");
  const marketCost = market.reduce((sum, s) => sum + (s.source === "market" ? s.cost : 0), 0);
  const own = e.paid - marketCost;
  if (own > 0) lines.push({ label: COST_LABEL[a.kind], amount: -own });
  for (const s of market)
    if (s.source === "market") lines.push({ label: `${s.count} ${s.resource} from the market`, amount: -s.cost });
  let received = e.received;
  if (e.to_market) {
    lines.push({ label: `${e.to_market.count} ${e.to_market.resource} sold to the market`, amount: e.to_market.received });
    received -= e.to_market.received;
  }
  for (const s of e.sales)
    if (s.bonus?.kind === "money") {
      lines.push({ label: `${locationName(s.merchant)} merchant bonus`, amount: s.bonus.amount });
      received -= s.bonus.amount;
    }
  if (received > 0) lines.push({ label: a.kind === "loan" ? "Loan" : "Received", amount: received });
  const total = lines.reduce((sum, l) => sum + l.amount, 0);

  const me = e.players.find((d) => d.seat === e.seat);
  if (me?.vp) gains.push(`${me.vp > 0 ? "+" : ""}${me.vp} VP`);
  if (me?.income_space)
    gains.push(`income ${me.income_space > 0 ? "+" : ""}${plural(me.income_space, "space")} (level ${me.income_level >= 0 ? "+" : ""}${me.income_level})`);
  for (const d of e.players)
    if (d.seat !== e.seat && (d.vp || d.income_space))
      gains.push(`${PLAYER_NAMES[d.seat]}: ${[d.vp ? `${d.vp} VP` : "", d.income_space ? `income +${d.income_space}` : ""].filter(Boolean).join(", ")}`);
  return { what, resources, money: lines, total, gains };
}

const signed = (n: number) => (n < 0 ? `−${money(-n)}` : `+${money(n)}`);

export function EffectPreview({ effect, player }: { effect: MoveEvent; player: PlayerView }): JSX.Element {
  const t = previewText(effect);
  const after = player.money + t.total;
  return (
    <div class="preview" data-testid="preview">
      {t.what.length > 0 && <ul class="preview-what">{t.what.map((w, i) => <li key={i}>{w}</li>)}</ul>}
      {t.resources.length > 0 && (
        <div class="preview-block">
          <div class="preview-head">Resources</div>
          <ul>{t.resources.map((w, i) => <li key={i}>{w}</li>)}</ul>
        </div>
      )}
      <div class="preview-block">
        <div class="preview-head">Money</div>
        <table class="preview-money">
          <tbody>
            {t.money.map((l, i) => (
              <tr key={i}><td>{l.label}</td><td class="amount">{signed(l.amount)}</td></tr>
            ))}
            <tr class="total">
              <td>Total</td>
              <td class="amount" data-testid="preview-total" data-amount={t.total}>{t.money.length ? signed(t.total) : money(0)}</td>
            </tr>
          </tbody>
        </table>
        <div class="preview-after" data-testid="preview-after">Your money: {money(player.money)} → {money(after)}</div>
      </div>
      {t.gains.length > 0 && <div class="preview-gains">Now: {t.gains.join(" · ")}</div>}
    </div>
  );
}
