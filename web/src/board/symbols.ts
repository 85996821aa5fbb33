// Each player's symbol, so seats are told apart without colour (on tiles, links and chips).
export const PLAYER_SYMBOL = ["●", "▲", "■", "◆"];

/** The SVG path of a seat's symbol centred on (x, y), radius r (the same shapes as the text). */
export function symbolPath(seat: number, x: number, y: number, r: number): string {
  switch (seat) {
    case 0:
      return `M${x - r},${y} a${r},${r} 0 1,0 ${2 * r},0 a${r},${r} 0 1,0 ${-2 * r},0`;
    case 1:
      return `M${x},${y - r} L${x + r},${y + r * 0.8} L${x - r},${y + r * 0.8} Z`;
    case 2:
      return `M${x - r * 0.85},${y - r * 0.85} h${1.7 * r} v${1.7 * r} h${-1.7 * r} Z`;
    default:
      return `M${x},${y - r} L${x + r},${y} L${x},${y + r} L${x - r},${y} Z`;
  }
}
