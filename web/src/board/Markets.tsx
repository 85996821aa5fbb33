// The coal and iron markets drawn on the map (its empty north-east corner), as on the printed
// board: a column per price, two spaces each, the cubes in the dearest spaces (buying takes the
// cheapest cube, selling fills the dearest empty space), the price when the market is empty.
import type { JSX } from "preact";
import markets from "../../../data/markets.json";
import type { View } from "../api/types";
import { money, t } from "../i18n";
import { Piece } from "./pieces";

const SPACE = 20;
/** Where each market is drawn, and its middle (where carried cubes come from and go to). */
const AT = { coal: [1030, 28], iron: [1030, 124] } as const;
export const MARKET_MIDDLE = { coal: [1110, 60] as [number, number], iron: [1090, 156] as [number, number] };

function Market({ resource, cubes, x, y }: { resource: "coal" | "iron"; cubes: number; x: number; y: number }) {
  const { prices, empty_price: empty } = markets[resource];
  const capacity = prices.length;
  const columns = [...new Set(prices)];
  return (
    <g class={`board-market ${resource}`} data-market={resource} data-cubes={cubes}>
      <text x={x} y={y} class="market-title">{t("panel.market", { resource, n: cubes, price: money(prices[capacity - cubes] ?? empty) })}</text>
      {prices.map((price, i) => {
        const col = columns.indexOf(price);
        const row = i - prices.indexOf(price);
        const full = i >= capacity - cubes;
        const [sx, sy] = [x + col * (SPACE + 2), y + 6 + row * (SPACE + 2)];
        return full ? <Piece key={i} resource={resource} x={sx} y={sy} w={SPACE} h={SPACE} />
          : <rect key={i} x={sx} y={sy} width={SPACE} height={SPACE} rx={2} class="market-space" />;
      })}
      {columns.map((price, col) => (
        <text key={price} x={x + col * (SPACE + 2) + SPACE / 2} y={y + 6 + 2 * (SPACE + 2) + 13} class="market-price">{money(price)}</text>
      ))}
      <g class="market-empty-price">
        <title>{t("board.market_empty", { price: money(empty) })}</title>
        <rect x={x + columns.length * (SPACE + 2)} y={y + 6} width={SPACE} height={2 * SPACE + 2} rx={2} class="market-space empty" />
        <text x={x + columns.length * (SPACE + 2) + SPACE / 2} y={y + 6 + 2 * (SPACE + 2) + 13} class="market-price">{money(empty)}</text>
      </g>
    </g>
  );
}

export function BoardMarkets({ view }: { view: View }): JSX.Element {
  return (
    <g class="board-markets">
      <Market resource="coal" cubes={view.coal_market} x={AT.coal[0]} y={AT.coal[1]} />
      <Market resource="iron" cubes={view.iron_market} x={AT.iron[0]} y={AT.iron[1]} />
    </g>
  );
}
