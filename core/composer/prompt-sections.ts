/**
 * `splitPromptSections(text)`: a pasted system prompt cut into sections the tier gate can weigh.
 * The first rule that finds a boundary decides:
 *
 * 1. Markdown headings (`#` … `######` at a line start, outside code fences): each heading starts a
 *    section; text before the first heading is a section of its own.
 * 2. XML-style tag blocks (a line that opens `<name …>` and a later line that closes `</name>`,
 *    at the top level): each block is a section, and so is the text between blocks.
 * 3. Horizontal rules (a line of `---`, `***` or `___`): they separate sections and belong to none.
 * 4. Otherwise paragraphs (separated by blank lines).
 *
 * Ids are stable for the same text: a slug of the heading or tag (`tone-and-format`, `rules`),
 * numbered when repeated; paragraphs and ruled parts are `p1`, `p2`, …. Offsets are UTF-16 indexes
 * into `text`; a section's text is `text.slice(start, end)` without its surrounding blank lines.
 * Linear in the text.
 */

export interface PromptSection {
  readonly id: string;
  /** The heading, the tag name, or the section's first words. */
  readonly title: string;
  readonly rule: "heading" | "tag" | "rule" | "paragraph";
  readonly start: number;
  readonly end: number;
}

interface Line {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    const nl = text.indexOf("\n", start);
    const end = nl < 0 ? text.length : nl;
    out.push({ start, end, text: text.slice(start, end) });
    if (nl < 0) break;
    start = nl + 1;
  }
  return out;
}

const HEADING = /^#{1,6}[ \t]+(\S.*?)[ \t#]*$/;
const FENCE = /^\s*(```|~~~)/;
const OPEN = /^\s*<([A-Za-z][\w.-]*)(?:\s[^>]*)?>/;
const RULE = /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/;
const BLANK = /^\s*$/;

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40) || "section";

const firstWords = (s: string) => {
  const line = s.trim().split("\n", 1)[0] ?? "";
  return line.length > 48 ? `${line.slice(0, 47)}…` : line;
};

/** `[start, end)` of lines `from..to` (inclusive) with leading and trailing blank lines dropped; null when all blank. */
function span(lines: readonly Line[], from: number, to: number): { start: number; end: number } | null {
  let a = from;
  let b = to;
  while (a <= b && BLANK.test(lines[a]!.text)) a++;
  while (b >= a && BLANK.test(lines[b]!.text)) b--;
  return a > b ? null : { start: lines[a]!.start, end: lines[b]!.end };
}

/** Splits `text` into sections (see the rules above); `[]` for blank text. */
export function splitPromptSections(text: string): PromptSection[] {
  const lines = linesOf(text);
  const raw: { title: string | null; rule: PromptSection["rule"]; start: number; end: number }[] = [];
  const add = (title: string | null, rule: PromptSection["rule"], from: number, to: number) => {
    const s = span(lines, from, to);
    if (s) raw.push({ title, rule, ...s });
  };

  // 1. Headings, outside code fences.
  const headings: number[] = [];
  let fenced = false;
  lines.forEach((l, i) => {
    if (FENCE.test(l.text)) fenced = !fenced;
    else if (!fenced && HEADING.test(l.text)) headings.push(i);
  });
  if (headings.length > 0) {
    add(null, "heading", 0, headings[0]! - 1);
    headings.forEach((h, k) =>
      add(HEADING.exec(lines[h]!.text)![1]!, "heading", h, (headings[k + 1] ?? lines.length) - 1),
    );
  } else {
    // 2. Top-level tag blocks: an opening line, then the first later line that closes the same name.
    // The lines closing each tag name, ascending; a cursor per name keeps the search linear.
    const closes = new Map<string, number[]>();
    lines.forEach((l, i) => {
      for (const m of l.text.matchAll(/<\/([A-Za-z][\w.-]*)\s*>/g)) {
        const list = closes.get(m[1]!) ?? [];
        if (list[list.length - 1] !== i) list.push(i);
        closes.set(m[1]!, list);
      }
    });
    const cursor = new Map<string, number>();
    const blocks: { name: string; from: number; to: number }[] = [];
    for (let i = 0; i < lines.length; i++) {
      const open = OPEN.exec(lines[i]!.text);
      if (!open) continue;
      const list = closes.get(open[1]!) ?? [];
      let c = cursor.get(open[1]!) ?? 0;
      while (c < list.length && list[c]! < i) c++;
      cursor.set(open[1]!, c);
      if (c < list.length) {
        blocks.push({ name: open[1]!, from: i, to: list[c]! });
        i = list[c]!;
      }
    }
    if (blocks.length > 0) {
      let next = 0;
      for (const b of blocks) {
        add(null, "paragraph", next, b.from - 1);
        add(b.name, "tag", b.from, b.to);
        next = b.to + 1;
      }
      add(null, "paragraph", next, lines.length - 1);
    } else if (lines.some((l) => RULE.test(l.text))) {
      // 3. Horizontal rules.
      let from = 0;
      lines.forEach((l, i) => {
        if (!RULE.test(l.text)) return;
        add(null, "rule", from, i - 1);
        from = i + 1;
      });
      add(null, "rule", from, lines.length - 1);
    } else {
      // 4. Paragraphs.
      let from = 0;
      lines.forEach((l, i) => {
        if (!BLANK.test(l.text)) return;
        add(null, "paragraph", from, i - 1);
        from = i + 1;
      });
      add(null, "paragraph", from, lines.length - 1);
    }
  }

  const used = new Map<string, number>();
  let numbered = 0;
  return raw.map((r) => {
    const base = r.title !== null ? slug(r.title) : `p${++numbered}`;
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return {
      id: n === 1 ? base : `${base}-${n}`,
      title: r.title ?? firstWords(text.slice(r.start, r.end)),
      rule: r.rule,
      start: r.start,
      end: r.end,
    };
  });
}
