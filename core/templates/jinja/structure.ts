/**
 * A pass over the library's tokens before parsing: block balance with positioned, actionable
 * messages ("{% for %} at 3:1 is never closed"), nesting depth (so the recursive parser never
 * overflows the stack), and `{% autoescape … %}` tags, which the library does not know and
 * which mean nothing for prompts (they are never HTML-escaped): their tokens are removed, the
 * text between them stays.
 */
import { TemplateError } from "../errors.ts";
import { TEMPLATE_ERROR_CODES, TemplateLimitError } from "./limits.ts";
import type { JinjaToken, SourcePosition } from "./source.ts";

const OPENERS: Readonly<Record<string, string>> = {
  if: "endif",
  for: "endfor",
  macro: "endmacro",
  call: "endcall",
  filter: "endfilter",
  set: "endset",
  autoescape: "endautoescape",
};
const CLOSERS: ReadonlySet<string> = new Set(Object.values(OPENERS));
const AUTOESCAPE_VALUES: ReadonlySet<string> = new Set(["on", "off", "true", "false", "True", "False"]);
const SUPPORTED = "if/elif/else, for, set, macro, call, filter, break, continue and autoescape";

interface OpenBlock {
  readonly keyword: string;
  readonly index: number;
}

export interface CheckedTokens {
  readonly tokens: JinjaToken[];
  readonly positions: (SourcePosition | undefined)[];
}

/** Index of the token that closes the tag opened at `open` (or `tokens.length`). */
export function closeOf(tokens: readonly JinjaToken[], open: number): number {
  const type = tokens[open]?.type === "OpenExpression" ? "CloseExpression" : "CloseStatement";
  let i = open + 1;
  while (i < tokens.length && tokens[i]!.type !== type) i++;
  return i;
}

function describeAt(position: SourcePosition | undefined): string {
  return position === undefined ? "" : ` at line ${position.line}, column ${position.column}`;
}

/** Validates block structure and depth; returns the tokens without autoescape tags. */
export function checkStructure(
  tokens: readonly JinjaToken[],
  positions: readonly (SourcePosition | undefined)[],
  maxDepth: number,
): CheckedTokens {
  const outTokens: JinjaToken[] = [];
  const outPositions: (SourcePosition | undefined)[] = [];
  const stack: OpenBlock[] = [];
  const syntax = (message: string, index: number): TemplateError =>
    new TemplateError(TEMPLATE_ERROR_CODES.syntax, message, positions[index]);
  const tagText = (keyword: string) => `{% ${keyword} %}`;

  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (token.type !== "OpenStatement" && token.type !== "OpenExpression") {
      outTokens.push(token);
      outPositions.push(positions[i]);
      i++;
      continue;
    }
    const close = closeOf(tokens, i);
    // Nesting inside the tag: brackets on top of the open blocks (+1 for the template, +1 for the tag).
    let brackets = 0;
    for (let k = i + 1; k < close; k++) {
      const type = tokens[k]!.type;
      if (type === "OpenParen" || type === "OpenSquareBracket" || type === "OpenCurlyBracket") {
        brackets++;
        if (stack.length + brackets + 2 > maxDepth) {
          throw new TemplateLimitError(
            "maxDepth",
            maxDepth,
            `Brackets nest ${brackets} deep inside ${stack.length} open block(s)`,
            positions[k],
          );
        }
      } else if (type === "CloseParen" || type === "CloseSquareBracket" || type === "CloseCurlyBracket") brackets--;
    }
    const next = tokens[i + 1];
    const keyword = token.type === "OpenStatement" && next?.type === "Identifier" ? next.value : undefined;
    if (token.type === "OpenStatement") {
      if (keyword === undefined)
        throw syntax(`A statement tag must start with a keyword (${SUPPORTED})${describeAt(positions[i])}.`, i);
      if (keyword === "autoescape") {
        const value = tokens[i + 2];
        if (close !== i + 3 || value === undefined || !AUTOESCAPE_VALUES.has(value.value)) {
          throw syntax(
            `{% autoescape %}${describeAt(positions[i])} takes one of on, off, true or false, e.g. {% autoescape off %}.`,
            i,
          );
        }
      } else if (keyword === "endautoescape" && close !== i + 2) {
        throw syntax(`{% endautoescape %}${describeAt(positions[i])} takes no arguments.`, i);
      }
      const opensBlock =
        keyword in OPENERS && (keyword !== "set" || !tokens.slice(i + 2, close).some((t) => t.type === "Equals"));
      if (opensBlock) {
        stack.push({ keyword, index: i });
        if (stack.length + 1 > maxDepth) {
          throw new TemplateLimitError("maxDepth", maxDepth, `Blocks nest ${stack.length} deep`, positions[i]);
        }
      } else if (CLOSERS.has(keyword)) {
        const open = stack.pop();
        if (open === undefined)
          throw syntax(`${tagText(keyword)}${describeAt(positions[i])} has no matching opening tag: remove it.`, i);
        if (OPENERS[open.keyword] !== keyword) {
          throw syntax(
            `${tagText(keyword)}${describeAt(positions[i])} closes ${tagText(open.keyword)} opened${describeAt(positions[open.index])}: ` +
              `add ${tagText(OPENERS[open.keyword]!)} before it.`,
            i,
          );
        }
      } else if (keyword === "elif" || keyword === "else") {
        const top = stack[stack.length - 1];
        if (top === undefined || (top.keyword !== "if" && !(keyword === "else" && top.keyword === "for"))) {
          throw syntax(
            `${tagText(keyword)}${describeAt(positions[i])} is outside an {% if %}${keyword === "else" ? " or {% for %}" : ""} block.`,
            i,
          );
        }
      } else if (keyword === "break" || keyword === "continue") {
        if (!stack.some((b) => b.keyword === "for"))
          throw syntax(`${tagText(keyword)}${describeAt(positions[i])} is outside a {% for %} loop.`, i);
      } else if (keyword !== "set") {
        throw syntax(
          `Unknown tag {% ${keyword} %}${describeAt(positions[i])}: supported tags are ${SUPPORTED} (no include, extends or import).`,
          i,
        );
      }
      if (keyword === "autoescape" || keyword === "endautoescape") {
        i = close + 1;
        continue;
      }
    }
    for (let k = i; k <= close && k < tokens.length; k++) {
      outTokens.push(tokens[k]!);
      outPositions.push(positions[k]);
    }
    i = close + 1;
  }
  const open = stack[stack.length - 1];
  if (open !== undefined) {
    throw syntax(
      `${tagText(open.keyword)} opened${describeAt(positions[open.index])} is never closed: add ${tagText(OPENERS[open.keyword]!)}.`,
      open.index,
    );
  }
  return { tokens: outTokens, positions: outPositions };
}
