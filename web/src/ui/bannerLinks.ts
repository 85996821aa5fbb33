// The admin's banner is plain text; an http(s) address in it becomes a link. The text is cut
// into pieces here, and the banner renders them as nodes: no HTML is ever made from the text.

/** A piece of the banner: plain text, or an address to link to. */
export type BannerPiece = { text: string } | { url: string };

/** http:// or https:// up to the next space (or a character no address holds unescaped). */
const ADDRESS = /\bhttps?:\/\/[^\s<>"]+/gi;
/** Punctuation that ends a sentence rather than the address ("see https://x.org/a."). */
const TRAILING = /[.,;:!?'\u2019»]$/;

/** The address without the punctuation after it: a closing bracket stays only when the
 * address opened it ("https://en.wikipedia.org/wiki/Brass_(game)"). */
function trim(url: string): string {
  for (;;) {
    const last = url.at(-1);
    const count = (c: string) => url.split(c).length - 1;
    if (last !== undefined && TRAILING.test(last)) url = url.slice(0, -1);
    else if (last === ")" && count(")") > count("(")) url = url.slice(0, -1);
    else if (last === "]" && count("]") > count("[")) url = url.slice(0, -1);
    else return url;
  }
}

/** `text` cut into plain pieces and http(s) addresses, in order; joined again they are `text`.
 * Only the http and https schemes are addresses: "javascript:…" stays text. */
export function bannerPieces(text: string): BannerPiece[] {
  const pieces: BannerPiece[] = [];
  let at = 0;
  for (const m of text.matchAll(ADDRESS)) {
    const url = trim(m[0]);
    if (!/^https?:\/\/[^/?#]/i.test(url)) continue; // "https://" and nothing after: text
    if (m.index > at) pieces.push({ text: text.slice(at, m.index) });
    pieces.push({ url });
    at = m.index + url.length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}
