// Help: the rules in a page's worth of plain words (summarised from the project's rules text,
// shared/rules/RULES.md: the server enforces the full version), opened from the game's header,
// and a short first-game guide that can be dismissed for good.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

const RULES: [string, string[]][] = [
  ["The goal", [
    "Two eras: canal, then rail. At the end of each era you score VP for your links and your flipped industry tiles. Most VP after the rail era wins; ties go to higher income, then more money.",
  ]],
  ["A turn", [
    "Each turn is 2 actions (only 1 in the very first round). Every action discards a card; you draw back to 8 at the end of your turn.",
    "Money you spend this round decides the next turn order: who spent least goes first.",
    "At the end of each round everyone gets their income (or pays it, if negative).",
  ]],
  ["Your network", [
    "A town is in your network if you have an industry tile there or a link touching it. With nothing on the board, every town is in your network.",
  ]],
  ["The seven actions", [
    "Build: a location card builds in that town; an industry card builds that industry anywhere in your network. You always build the lowest tile left on your mat, paying its cost plus the coal and iron it needs.",
    "Network: a canal link costs £3; a rail link £5 and a coal, or two rail links £15, two coal and a beer.",
    "Develop: remove the lowest tile of one or two industries from your mat (1 iron each) to reach better tiles.",
    "Sell: flip your cotton mills, manufacturers and potteries that are connected to a merchant buying them, using the beer printed on each. A merchant's own beer also gives its bonus.",
    "Loan: take £30; your income drops 3 levels.",
    "Scout: discard 3 cards to take a wild location and a wild industry card.",
    "Pass: discard a card and do nothing.",
  ]],
  ["Coal, iron and beer", [
    "Coal comes from the nearest connected coal mine, else from the coal market if the place is connected to a merchant. Iron comes from any ironworks, else the iron market. Beer comes from breweries (yours anywhere, others' when connected) or a merchant's barrel when selling.",
    "Before you confirm, the game shows the whole effect of your move: every cube and barrel with where it comes from, and the money.",
  ]],
  ["Flipping and scoring", [
    "A mine, ironworks or brewery flips when its last cube or barrel is taken — often by someone else. Goods tiles flip when sold. A flip moves its owner's income up by the tile's income number.",
    "At the end of an era each link scores the link icons of the places it joins (a merchant counts 2), then every flipped tile scores its VP. After the canal era, links and level-I tiles leave the board.",
  ]],
];

export function RulesSummary({ onClose }: { onClose: () => void }): JSX.Element {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <div class="help-backdrop" onClick={onClose}>
      <div class="help panel" role="dialog" aria-modal="true" aria-labelledby="help-title" data-testid="rules"
        onClick={(e) => e.stopPropagation()}>
        <div class="details-head">
          <h2 id="help-title">Rules in short</h2>
          <button type="button" class="close" ref={close} aria-label="Close the rules" onClick={onClose}>✕</button>
        </div>
        {RULES.map(([title, lines]) => (
          <section key={title}>
            <h3>{title}</h3>
            {lines.map((l, i) => <p key={i}>{l}</p>)}
          </section>
        ))}
      </div>
    </div>
  );
}

export function HelpButton(): JSX.Element {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class="help-button" data-testid="help" onClick={() => setOpen(true)}>Rules</button>
      {open && <RulesSummary onClose={() => setOpen(false)} />}
    </>
  );
}

const GUIDE_KEY = "brass.guide.done";

/** The first-game guide: four steps, dismissed for good with "Got it". */
export function Guide(): JSX.Element | null {
  const [done, setDone] = useState(() => localStorage.getItem(GUIDE_KEY) === "1");
  if (done) return null;
  return (
    <div class="guide panel" data-testid="guide" role="note" aria-label="First game guide">
      <div class="panel-title">Your first game</div>
      <ol>
        <li>Pick an action (Build, Network, …). The places you can use light up on the board and are listed as buttons.</li>
        <li>Choose the card to discard, then the place. Tap anything else on the board to read about it.</li>
        <li>Read "What it does": the tile, its worth, every resource and the money. Then Confirm.</li>
        <li>Early on, build coal, iron and breweries near merchants, and sell goods to flip them for income.</li>
      </ol>
      <button type="button" data-testid="guide-done" onClick={() => { localStorage.setItem(GUIDE_KEY, "1"); setDone(true); }}>Got it</button>
    </div>
  );
}
