import { tokenize } from "@huggingface/jinja";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TemplateError } from "../errors.ts";
import { tokenizeTemplate } from "./lexer.ts";
import { tokenize as vendoredTokenize } from "./vendor/huggingface-jinja.js";
import { renderJinjaTemplate } from "./render.ts";
import { preprocessWithOffsets } from "./source.ts";

type Outcome = { tokens: { type: string; value: string }[] } | { error: string };

function outcome(run: () => { type: string; value: string }[]): Outcome {
  try {
    return { tokens: run().map(({ type, value }) => ({ type, value })) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const library = (template: string, trim: boolean, lstrip: boolean) =>
  outcome(() => tokenize(template, { trim_blocks: trim, lstrip_blocks: lstrip }));
const strata = (template: string, trim: boolean, lstrip: boolean) =>
  outcome(() => tokenizeTemplate(preprocessWithOffsets(template, { trimBlocks: trim, lstripBlocks: lstrip }).text));

const space = fc
  .array(fc.constantFrom(" ", " ", " ", "\n", "\t", "\u3000", "\r\n"), { minLength: 0, maxLength: 50 })
  .map((a) => a.join(""));
const piece = fc.oneof(
  { weight: 6, arbitrary: space },
  {
    weight: 10,
    arbitrary: fc.constantFrom(
      "{{",
      "{{-",
      "}}",
      "-}}",
      "{%",
      "{%-",
      "%}",
      "-%}",
      "{#",
      "{#-",
      "#}",
      "-#}",
      "'",
      '"',
      "\\",
      "\\u",
      "{",
      "}",
      "x",
      "hello",
      "1",
      "-",
      "+",
      "generation",
      "endgeneration",
      "if",
      "endif",
      "(",
      ")",
      ",",
      "|",
    ),
  },
);
/** Mostly well-formed pieces: an expression or tag around long runs, strings and comments. */
const shaped = fc
  .tuple(space, space, space, space)
  .chain(([a, b, c, d]) =>
    fc.constantFrom(
      `x${a}{{${b}"s${c}t"${d}}}`,
      `x${a}{{-${b}'q${c}'${d}-}}${a}y`,
      `${a}{%${b}if x${c}%}${d}yes${a}{%- endif -%}${b}`,
      `a${a}{#${b}note${c}-#}${d}b`,
      `a${a}{#-${b}#}${c}`,
      `${a}{% generation %}${b}g${c}{%- endgeneration -%}${d}`,
      `{{ {'k':${a}{'j': 1}${b}}${c}}}${d}`,
      `{{ "\\${a}" }}`,
      `${a}{{ x }}${b}\n${c}{% if y %}${d}`,
    ),
  );
const template = fc.array(fc.oneof(piece, shaped), { maxLength: 24 }).map((parts) => parts.join(""));

/** Anything the lexer reads inside a tag: every operator, numbers, escapes, words, odd characters. */
const tagPiece = fc.constantFrom(
  ...["{%", "%}", "{{", "}}", "{%-", "-%}", "{{-", "-}}", "{#", "#}", "-#}", "(", ")", "{", "}", "[", "]", ",", "."],
  ...[":", "|", "<=", ">=", "==", "!=", "<", ">", "+", "-", "~", "**", "*", "//", "/", "%", "=", "!", "!!"],
  ...["0", "7", "12", "1.5", ".5", "3.", "-1", "+2", "-1.25", "x", "loop", "_a1", "if", "é", "@", "$", "?"],
  ...['"', "'", '"a b"', "'c'", '"\\n"', "'\\t'", '"\\x41"', '"\\x4"', '"\\u00e9"', '"\\u12"', '"\\q"'],
  ...["\\", "\\'", " ", "  ", "\n", "\t", "\u00a0", "\ufeff", "\u2028", "\u3000", "\r\n", "\ud83d", "\ude00"],
);
const soup = fc.array(tagPiece, { maxLength: 30 }).map((pieces) => pieces.join(""));
const tagged = fc.oneof(
  soup,
  soup.map((s) => `{{ ${s} }}`),
  soup.map((s) => `a{% ${s} %}b`),
  fc.tuple(soup, soup).map(([a, b]) => `t {{- ${a} -}} u {%- ${b} -%} v`),
);

/**
 * Strata's tokens (or error) are the library's for `t`; only a generation tag formed by removing
 * another is refused where the library lexes.
 */
function expectLibraryTokens(t: string, trim: boolean, lstrip: boolean): void {
  const expected = library(t, trim, lstrip);
  const actual = strata(t, trim, lstrip);
  if ("error" in actual && "tokens" in expected) {
    expect(actual.error).toMatch(/generation/);
    return;
  }
  expect(actual).toEqual(expected);
}

describe("the lexer", () => {
  it("gives the library's own tokens (or its own error, word for word) for any token soup (property)", () => {
    fc.assert(fc.property(tagged, fc.boolean(), fc.boolean(), expectLibraryTokens), { numRuns: 5000 });
  });

  it("makes the library's Token objects", () => {
    const [token] = tokenizeTemplate("{{ x }}");
    expect(token).toBeInstanceOf(vendoredTokenize("y")[0]!.constructor);
  });
});

describe("long whitespace runs", () => {
  it("gives the library's own tokens (or its own error) for templates with long whitespace runs (property)", () => {
    fc.assert(fc.property(template, fc.boolean(), fc.boolean(), expectLibraryTokens), { numRuns: 3000 });
  });

  it("keeps every long run exactly: in text, strings, comments and stripped by `-`", () => {
    const run = " ".repeat(300) + "\n".repeat(40) + "\t".repeat(30);
    for (const t of [
      `a${run}b`,
      `{{ "${run}" }}`,
      `{# ${run} #}x${run}`,
      `x${run}{%- if true -%}${run}y{% endif %}${run}`,
      `{{${run}'v'${run}}}`,
      `${run}{% generation %}${run}`,
    ]) {
      expect(strata(t, true, true)).toEqual(library(t, true, true));
    }
  });

  it("does not join a `{` to the opener of a tag that strips the whitespace between them", () => {
    for (const t of ["\t { {{-", "a{ {%- if x %}b{% endif %}", "a{\u3000 \t{#- c #}b", `{${" ".repeat(40)}{{- x }}`])
      for (const trim of [false, true]) expect(strata(t, trim, trim)).toEqual(library(t, trim, trim));
  });

  it("keeps a `{` before whitespace that `-` strips from joining the next tag (found by the property)", () => {
    const run = " ".repeat(40);
    for (const t of [
      `{ {#-a #}${run}`,
      `{\t{%- if x %}y{% endif %}${run}`,
      `x{  {{- 1 }}${run}`,
      "{ {#-a\t\u3000 {#-\r\n\t\u3000\r\n \u3000\t \n #}    \u3000\t\u3000\t\t   \r\n   ",
    ]) {
      for (const trim of [false, true]) expect(strata(t, trim, false)).toEqual(library(t, trim, false));
    }
  });

  it("renders 262,000 spaces (under the template limit) to themselves", () => {
    const spaces = " ".repeat(262_000);
    expect(renderJinjaTemplate(spaces, {}, { onError: "throw" })).toBe(spaces);
    expect(renderJinjaTemplate(`{{${spaces}x${spaces.slice(0, 100)}}}`, { x: 1 }, { onError: "throw" })).toBe("1");
  });

  it("refuses a generation tag formed by removing another, with a syntax error", () => {
    expect(() =>
      tokenizeTemplate(
        preprocessWithOffsets("{% {% generation %} generation %}", { trimBlocks: true, lstripBlocks: true }).text,
      ),
    ).toThrow(TemplateError);
  });
});
