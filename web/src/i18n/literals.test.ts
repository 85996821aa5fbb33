// No English on the screen but through the catalogues: every client source (as catalogues.test.ts
// reads them) is parsed with TypeScript, and a letter in what reaches the page without t() fails:
// JSX text; the attributes people read or hear (title, aria-label, placeholder, alt, label); a
// string prop given to a component; strings in the value of a JSX expression (a branch of `?:`,
// the end of `&&`, a template's text, a `join` separator); what confirm(), alert() and a
// Notification say, and the document's title. Strings built in TypeScript away from JSX (the
// details card's lines, the preview's labels) are caught by the second rule: a literal with two
// words in a row, anywhere outside t(), is a sentence for a catalogue.
import ts from "typescript";
import { describe, expect, it } from "vitest";

const globbed = import.meta.glob(["../**/*.ts", "../**/*.tsx", "!../**/*.test.ts"], { query: "?raw", import: "default", eager: true });
/** Each source by its path under src/ ("ui/Chat.tsx", "i18n/index.ts"). */
const sources: Record<string, string> = Object.fromEntries(Object.entries(globbed as Record<string, string>)
  .map(([f, src]) => [f.replace(/^\.\.\//, "").replace(/^\.\//, "i18n/"), src]));

/** Attributes whose text is read or heard. */
const READ = new Set(["title", "aria-label", "aria-description", "aria-roledescription", "aria-valuetext", "placeholder", "alt", "label"]);
/** Attributes that are code, never shown (on elements and components alike). */
const CODE = /^(key|class|className|id|name|type|role|href|colou?r|resource|src|rel|target|lang|dir|value|for|htmlFor|tabindex|tabIndex|viewBox|xmlns|d|fill|stroke|style|text-anchor|stroke-dasharray|inputMode|autocomplete|min|max|step|data-.*|aria-(?!label|description|roledescription|valuetext).*)$/;
/** Two words in a row, or a capitalised word (a label: "Owner: ", "Total"): words for a
 * person, wherever they stand. */
const SENTENCE = /\p{L}{2,}[ ,:;!?]+\p{L}{2,}|^\s*\p{Lu}\p{Ll}{2,}(?!\p{Ll}*\p{Lu})/u;
const LETTER = /\p{L}/u;

/** Strings that may stand in the code, each with its reason (file, then the exact text). */
const ALLOWED: [string, string, string][] = [
  ["i18n/index.ts", "English", "each language's own name in the language menu: the same in every language"],
  ["i18n/index.ts", "Polski", "each language's own name in the language menu: the same in every language"],
  ["api/client.ts", "Bearer …", "the HTTP authorisation scheme, never shown"],
  ["ui/useMoveAnimation.ts", "(prefers-reduced-motion: reduce)", "a CSS media query, never shown"],
  ["ui/ActionPanel.tsx", "(pointer: coarse)", "a CSS media query (a touch screen: the prompts say Tap), never shown"],
  ["board/play.ts", "inset 0 0 0 2px #f3c77a, inset 0 0 0 999px rgba(243, 199, 122, 0.3)", "a CSS box-shadow (a counter's flash), never shown"],
  ["board/play.ts", "inset 0 0 0 2px rgba(243, 199, 122, 0), inset 0 0 0 999px rgba(243, 199, 122, 0)", "a CSS box-shadow (a counter's flash), never shown"],
  ["ui/Help.tsx", "button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])", "a CSS selector (what takes the focus in the dialog), never shown"],
];

interface Finding { file: string; line: number; text: string; rule: string }

/** Is `node` the key (first argument) of t(), i18n.t() or has()? */
function isKey(node: ts.Node): boolean {
  const call = node.parent;
  if (!call || !ts.isCallExpression(call) || call.arguments[0] !== node) return false;
  const callee = call.expression;
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : "";
  return name === "t" || name === "has";
}

function text(node: ts.Node, sf: ts.SourceFile): string {
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join("…");
  if (ts.isJsxText(node)) return node.text.trim();
  return node.getText(sf);
}

/** The strings an expression can evaluate to, as far as they are literals (what a JSX
 * expression or a read attribute puts on the page). Calls are not followed (t() and the
 * names tables are the way in), but for `join`, whose separator stands between the parts. */
function shown(e: ts.Node): ts.Node[] {
  if (ts.isStringLiteralLike(e)) return [e];
  if (ts.isTemplateExpression(e)) return [e, ...e.templateSpans.flatMap((s) => shown(s.expression))];
  if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e)) return shown(e.expression);
  if (ts.isConditionalExpression(e)) return [...shown(e.whenTrue), ...shown(e.whenFalse)];
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return shown(e.right);
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.PlusToken)
      return [...shown(e.left), ...shown(e.right)];
    return [];
  }
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === "join")
    return [...shown(e.expression.expression), ...e.arguments.flatMap(shown)];
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === "map") {
    const f = e.arguments[0];
    if (f && (ts.isArrowFunction(f)) && !ts.isBlock(f.body)) return shown(f.body);
  }
  return [];
}

function tagName(attr: ts.JsxAttribute): string {
  const owner = attr.parent.parent; // JsxAttributes -> opening or self-closing element
  return ts.isJsxOpeningElement(owner) || ts.isJsxSelfClosingElement(owner) ? owner.tagName.getText() : "";
}

/** Inside a code attribute (class, key, data-*…): not shown. */
function inCodeAttribute(node: ts.Node): boolean {
  for (let p: ts.Node | undefined = node.parent; p; p = p.parent) {
    if (ts.isJsxAttribute(p)) return CODE.test(p.name.getText());
    if (ts.isJsxElement(p) || ts.isJsxSelfClosingElement(p)) return false;
  }
  return false;
}

/** A string the code compares with (a key name, a tag name) or a type: never shown. */
function compared(node: ts.Node): boolean {
  const p = node.parent;
  if (ts.isCaseClause(p) || ts.isLiteralTypeNode(p)) return true;
  if (ts.isElementAccessExpression(p) && p.argumentExpression === node) return true;
  if (!ts.isBinaryExpression(p)) return false;
  return [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.InKeyword].includes(p.operatorToken.kind);
}

export function findLiterals(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: Finding[] = [];
  const flagged = new Set<ts.Node>();
  const add = (node: ts.Node, rule: string) => {
    if (flagged.has(node) || isKey(node)) return;
    const s = text(node, sf);
    if (!LETTER.test(s)) return;
    flagged.add(node);
    out.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: s, rule });
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) add(node, "JSX text");
    else if (ts.isJsxAttribute(node)) {
      const name = node.name.getText();
      const component = /^[A-Z]/.test(tagName(node));
      const init = node.initializer;
      if (init && (READ.has(name) || (component && !CODE.test(name)))) {
        const value = ts.isJsxExpression(init) ? init.expression : init;
        if (value) for (const s of shown(value)) add(s, `${name}=`);
      }
    } else if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      for (const s of shown(node.expression)) add(s, "JSX expression");
    } else if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && ts.isIdentifier(node.expression)
      && ["confirm", "alert", "prompt", "Notification"].includes(node.expression.text)) {
      for (const a of node.arguments ?? []) for (const s of shown(a)) add(s, `${node.expression.text}()`);
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken
      && node.left.getText(sf) === "document.title") {
      for (const s of shown(node.right)) add(s, "document.title");
    }
    if ((ts.isStringLiteralLike(node) || ts.isTemplateExpression(node)) && !ts.isImportDeclaration(node.parent)
      && !ts.isExportDeclaration(node.parent) && !inCodeAttribute(node) && !compared(node) && SENTENCE.test(text(node, sf)))
      add(node, "sentence");
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const allowed = (f: Finding) => ALLOWED.some(([file, s]) => f.file === file && f.text === s);

describe("no literal text on the screen", () => {
  // each scan parses every source file: seconds on a loaded 2-core CI machine, not a hang
  const SCAN_MS = 60_000;

  it("reads the client's sources", () => {
    expect(Object.keys(sources)).toContain("ui/Details.tsx");
    expect(Object.keys(sources)).toContain("i18n/index.ts");
  });

  it("catches a literal (the rules work)", () => {
    const probe = (src: string) => findLiterals("probe.tsx", src).map((f) => f.rule);
    expect(probe(`const a = <p>Hello</p>;`)).toEqual(["JSX text"]);
    expect(probe(`const a = <b title="Close it" aria-label={x ? "Shut" : t("k")} />;`)).toEqual(["title=", "aria-label="]);
    expect(probe(`const a = <i placeholder={\`Say \${n}\`} alt="x" />;`)).toEqual(["placeholder=", "alt="]);
    expect(probe(`const a = <p>{ok && " (bot)"}{n ?? "Game"}{xs.join(" or ")}</p>;`)).toEqual(["JSX expression", "JSX expression", "JSX expression"]);
    expect(probe(`const a = <Hand title="Mine" viewerLabel="you" key="k" data-x="y" />;`)).toEqual(["title=", "viewerLabel="]);
    expect(probe(`confirm("Resign?"); new Notification("Your turn"); document.title = "Brass";`)).toEqual(["confirm()", "Notification()", "document.title"]);
    expect(probe(`const lines = [\`Owner: \${who}\`, "canal or rail"];`)).toEqual(["sentence", "sentence"]);
    // what is allowed: keys, code, symbols
    expect(probe(`const a = <p class="pill card-pill" data-testid="x y">{t("a.b")} £ ✕ {n} — {t(\`conn.\${c}\`)}</p>;`)).toEqual([]);
  });

  it("every string the client shows comes from a catalogue", () => {
    const found = Object.entries(sources).flatMap(([file, src]) => findLiterals(file, src)).filter((f) => !allowed(f));
    expect(found.map((f) => `${f.file}:${f.line} ${f.rule} ${JSON.stringify(f.text)}`)).toEqual([]);
  }, SCAN_MS);

  it("every allowed string is still flagged (the list stays short and true)", () => {
    const found = Object.entries(sources).flatMap(([file, src]) => findLiterals(file, src));
    for (const [file, s, why] of ALLOWED)
      expect(found.some((f) => f.file === file && f.text === s), `${file}: ${s} (${why})`).toBe(true);
  }, SCAN_MS);
});
