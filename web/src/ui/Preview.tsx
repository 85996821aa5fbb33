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
import { isolate, signedMoney, signedNum, t } from "../i18n";
import { INDUSTRY_NAME, linkName, locationName, money, PLAYER_NAMES, tileName } from "../logic/names";
import { amountWords, cubeWords, supplyWords } from "../logic/words";

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

/** "your Brewery I" or "Yellow's Brewery I", for `select` in the messages. */
function whose(owner: number, seat: number): { owner: string; ownerName: string } {
  return owner === seat ? { owner: "self", ownerName: "" } : { owner: "other", ownerName: isolate(PLAYER_NAMES[owner]) };
}

const place = (id: string) => isolate(locationName(id));

/** The preview in words and figures, from the engine's move event; `incomeLevel` is the mover's
 * income level before the move (the event has only its change). */
export function previewText(e: MoveEvent, incomeLevel: number): PreviewText {
  const a = e.action;
  const what: string[] = [];
  const gains: string[] = [];
  const p = e.placed;
  if (p) {
    what.push(t("preview.placed", { tile: tileName(p.industry, p.level), location: place(p.location), slot: p.slot + 1 }));
    what.push(t("preview.worth", { vp: p.vp, income: p.income, spaces: signedNum(p.income), links: p.link_icons }));
    if (p.resources > 0) what.push(t("preview.places", { cubes: cubeWords(p.industry, p.resources) }));
  }
  for (const r of e.removed) what.push(t("preview.replaces", { tile: tileName(r.industry, r.level), ...whose(r.owner, e.seat) }));
  if (e.to_market)
    what.push(t("preview.to_market", { amount: amountWords(e.to_market.resource, e.to_market.count), money: money(e.to_market.received) }));
  for (const l of e.links) what.push(t("preview.link", { kind: l.kind, link: isolate(linkName(l.id)) }));
  for (const d of e.developed) what.push(t("preview.develops", { tile: tileName(d.industry, d.level) }));
  for (const s of e.sales) {
    const b = s.bonus;
    what.push(t("preview.sale", {
      tile: tileName(s.industry, s.level), location: place(s.location), merchant: place(s.merchant),
      bonus: t("preview.sale_bonus", {
        kind: b ? (b.kind === "develop" && !b.develop ? "declined" : b.kind) : "none",
        n: b?.amount ?? 0, money: money(b?.amount ?? 0), industry: b?.develop ? INDUSTRY_NAME[b.develop] : "",
      }),
    }));
  }
  for (const f of e.flipped)
    what.push(t("preview.flips", { tile: tileName(f.industry, f.level), location: place(f.location), n: f.income, ...whose(f.owner, e.seat) }));
  if (a.kind === "pass") what.push(t("preview.pass"));
  if (a.kind === "loan") what.push(t("preview.loan", { money: money(e.received) }));
  if (a.kind === "scout") what.push(t("preview.scout", { cards: a.cards.length }));

  const resources = e.supplies.map((s) => supplyWords(s.resource, s, e.seat));

  const lines: MoneyLine[] = [];
  const market = e.supplies.filter((s) => s.source === "market");
  const marketCost = market.reduce((sum, s) => sum + (s.source === "market" ? s.cost : 0), 0);
  const own = e.paid - marketCost;
  if (own > 0) lines.push({ label: t("preview.cost", { kind: a.kind }), amount: -own });
  for (const s of market)
    if (s.source === "market") lines.push({ label: t("preview.from_market", { amount: amountWords(s.resource, s.count) }), amount: -s.cost });
  let received = e.received;
  if (e.to_market) {
    lines.push({ label: t("preview.sold_to_market", { amount: amountWords(e.to_market.resource, e.to_market.count) }), amount: e.to_market.received });
    received -= e.to_market.received;
  }
  for (const s of e.sales)
    if (s.bonus?.kind === "money") {
      lines.push({ label: t("preview.merchant_bonus", { merchant: place(s.merchant) }), amount: s.bonus.amount });
      received -= s.bonus.amount;
    }
  if (received > 0) lines.push({ label: t("preview.received", { kind: a.kind }), amount: received });
  const total = lines.reduce((sum, l) => sum + l.amount, 0);

  const me = e.players.find((d) => d.seat === e.seat);
  if (me?.vp) gains.push(t("preview.gain_vp", { n: signedNum(me.vp) }));
  // the level before and after: the event's `income_level` is the change, not the new level
  if (me?.income_space)
    gains.push(t("preview.gain_income", { n: me.income_space, spaces: signedNum(me.income_space), from: signedNum(incomeLevel), to: signedNum(incomeLevel + me.income_level) }));
  for (const d of e.players)
    if (d.seat !== e.seat && (d.vp || d.income_space)) {
      const parts = [d.vp ? t("preview.other_vp", { n: d.vp }) : "", d.income_space ? t("preview.other_income", { n: signedNum(d.income_space) }) : ""];
      gains.push(t("preview.other_gains", { who: isolate(PLAYER_NAMES[d.seat]), gains: parts.filter(Boolean).join(t("list.separator")) }));
    }
  return { what, resources, money: lines, total, gains };
}

export function EffectPreview({ effect, player }: { effect: MoveEvent; player: PlayerView }): JSX.Element {
  const p = previewText(effect, player.income_level);
  const after = player.money + p.total;
  return (
    <div class="preview" data-testid="preview">
      {p.what.length > 0 && <ul class="preview-what">{p.what.map((w, i) => <li key={i}>{w}</li>)}</ul>}
      {p.resources.length > 0 && (
        <div class="preview-block">
          <div class="preview-head">{t("preview.resources")}</div>
          <ul>{p.resources.map((w, i) => <li key={i}>{w}</li>)}</ul>
        </div>
      )}
      <div class="preview-block">
        <div class="preview-head">{t("preview.money")}</div>
        {p.money.length === 0 ? (
          // no money paid or received (Scout, Pass): said in words, not as "Total £0"
          <div class="preview-free" data-testid="preview-total" data-amount={0}>{t("preview.no_money")}</div>
        ) : (
          <>
            <table class="preview-money">
              <tbody>
                {p.money.map((l, i) => (
                  <tr key={i}><td>{l.label}</td><td class="amount"><bdi>{signedMoney(l.amount)}</bdi></td></tr>
                ))}
                <tr class="total">
                  <td>{t("preview.total")}</td>
                  <td class="amount" data-testid="preview-total" data-amount={p.total}><bdi>{signedMoney(p.total)}</bdi></td>
                </tr>
              </tbody>
            </table>
            <div class="preview-after" data-testid="preview-after">{t("preview.after", { before: money(player.money), after: money(after) })}</div>
          </>
        )}
      </div>
      {p.gains.length > 0 && <div class="preview-gains">{t("preview.now", { gains: p.gains.join(" · ") })}</div>}
    </div>
  );
}
