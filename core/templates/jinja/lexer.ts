/**
 * The library's lexer — `tokenize` of @huggingface/jinja after its `preprocess` — written again to
 * run in linear time and without building strings a character at a time. The library's own takes
 * about 60 ns per character (each character is a one-character string tested by a regex and
 * appended to the token) and runs its generation-tag regex first, which backtracks over every
 * whitespace run (65,536 spaces take seconds, 262,000 minutes). Strata rewrites the template with
 * `preprocessWithOffsets` (linear) and lexes the result here.
 *
 * The tokens are the library's own (`Token` instances, same types and values) and so is every
 * error, word for word: `compile.ts` locates a lexer error from its message, and the tests check
 * both against the library on generated templates. Whatever the library does at a character —
 * which of two operators wins, where a run of whitespace or digits may end, what an escape means —
 * is done here in the same order.
 */
import { tokenize } from "./vendor/huggingface-jinja.js";
import { TemplateError } from "../errors.ts";
import { TEMPLATE_ERROR_CODES } from "./limits.ts";
import type { JinjaToken } from "./source.ts";
import { hasGenerationTag, isSpace } from "./source.ts";

type TokenClass = new (value: string, type: string) => JinjaToken;

let tokenClass: TokenClass | undefined;

/** The library's `Token` class (it exports none): the constructor of a token it made. */
const Token = (): TokenClass => (tokenClass ??= tokenize("x")[0]!.constructor as TokenClass);

/** The library's escapes in string literals (`\x..` and `\u....` are read apart). */
const ESCAPES: ReadonlyMap<string, string> = new Map([
  ["n", "\n"],
  ["t", "\t"],
  ["r", "\r"],
  ["b", "\b"],
  ["f", "\f"],
  ["v", "\v"],
  ["'", "'"],
  ['"', '"'],
  ["\\", "\\"],
]);

const NOT_HEX = /[^0-9a-f]/i;

const isDigit = (code: number): boolean => code >= 48 && code <= 57;
/** `\w` without the `u` flag: ASCII letters, digits and `_`. */
const isWordCode = (code: number): boolean =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || isDigit(code) || code === 95;

/** The second character of a tag opener after `{`: `%`, `{` or `#`. */
const opensTag = (code: number): boolean => code === 37 || code === 123 || code === 35;

const endOfInput = (): SyntaxError => new SyntaxError("Unexpected end of input");

/** Each operator and bracket's token type (the library's table). */
const OPERATOR_TYPES: ReadonlyMap<string, string> = new Map([
  ["{%", "OpenStatement"],
  ["{{", "OpenExpression"],
  ["{", "OpenCurlyBracket"],
  ["%}", "CloseStatement"],
  ["%", "MultiplicativeBinaryOperator"],
  ["}}", "CloseExpression"],
  ["}", "CloseCurlyBracket"],
  ["(", "OpenParen"],
  [")", "CloseParen"],
  ["[", "OpenSquareBracket"],
  ["]", "CloseSquareBracket"],
  [",", "Comma"],
  [".", "Dot"],
  [":", "Colon"],
  ["|", "Pipe"],
  ["<=", "ComparisonBinaryOperator"],
  ["<", "ComparisonBinaryOperator"],
  [">=", "ComparisonBinaryOperator"],
  [">", "ComparisonBinaryOperator"],
  ["==", "ComparisonBinaryOperator"],
  ["=", "Equals"],
  ["!=", "ComparisonBinaryOperator"],
  ["+", "AdditiveBinaryOperator"],
  ["-", "AdditiveBinaryOperator"],
  ["~", "AdditiveBinaryOperator"],
  ["**", "ExponentiationBinaryOperator"],
  ["*", "MultiplicativeBinaryOperator"],
  ["//", "MultiplicativeBinaryOperator"],
  ["/", "MultiplicativeBinaryOperator"],
]);

/**
 * The operator or bracket at `c`, as the library's ordered table finds it (the longer of two
 * operators that share a first character wins; `}}` closes an expression only outside `{ … }`).
 */
function operatorAt(src: string, c: number, curlyDepth: number): string | undefined {
  const next = src[c + 1];
  switch (src[c]) {
    case "{":
      return next === "%" ? "{%" : next === "{" ? "{{" : "{";
    case "%":
      return next === "}" ? "%}" : "%";
    case "}":
      return next === "}" && curlyDepth <= 0 ? "}}" : "}";
    case "(":
    case ")":
    case "[":
    case "]":
    case ",":
    case ".":
    case ":":
    case "|":
      return src[c];
    case "<":
      return next === "=" ? "<=" : "<";
    case ">":
      return next === "=" ? ">=" : ">";
    case "=":
      return next === "=" ? "==" : "=";
    case "!":
      return next === "=" ? "!=" : undefined;
    case "+":
    case "-":
    case "~":
      return src[c];
    case "*":
      return next === "*" ? "**" : "*";
    case "/":
      return next === "/" ? "//" : "/";
    default:
      return undefined;
  }
}

/** Token types after which `-1` is a number and `-x` a unary minus (after the others, `-` subtracts). */
const OPERAND_ENDS: ReadonlySet<string | undefined> = new Set([
  "Identifier",
  "NumericLiteral",
  "StringLiteral",
  "CloseParen",
  "CloseSquareBracket",
]);

function lex(src: string): JinjaToken[] {
  const Tok = Token();
  const tokens: JinjaToken[] = [];
  const n = src.length;
  let c = 0;
  let curlyDepth = 0;
  const lastType = (): string | undefined => (tokens.length === 0 ? undefined : tokens[tokens.length - 1]!.type);
  const push = (value: string, type: string) => {
    tokens.push(new Tok(value, type));
  };
  /**
   * The library's `consumeWhile` for a class without `\`: it fails on taking the last character
   * of the input (a tag cannot end there).
   */
  const run = (accept: (code: number) => boolean): string => {
    const start = c;
    while (c < n && accept(src.charCodeAt(c))) c++;
    if (c > start && c >= n) throw endOfInput();
    return src.slice(start, c);
  };
  /** A string literal's body up to its closing `quote` (not taken), escapes read. */
  const stringBody = (quote: string): string => {
    let out = "";
    let from = c;
    // Past the end the library reads `undefined`, which is not the quote: it takes it and fails.
    while (c >= n || src[c] !== quote) {
      if (c < n && src.charCodeAt(c) === 92) {
        out += src.slice(from, c);
        if (++c >= n) throw endOfInput();
        const escaped = src[c++]!;
        if (escaped === "x" || escaped === "u") {
          const length = escaped === "x" ? 2 : 4;
          const hex = src.slice(c, c + length);
          if (hex.length !== length || NOT_HEX.test(hex))
            throw new SyntaxError(`Invalid hexadecimal escape sequence: \\${escaped}${hex}`);
          out += String.fromCharCode(parseInt(hex, 16));
          c += length;
        } else {
          const unescaped = ESCAPES.get(escaped);
          if (unescaped === undefined) throw new SyntaxError(`Unexpected escaped character: ${escaped}`);
          out += unescaped;
        }
        from = c;
        continue;
      }
      if (++c >= n) throw endOfInput();
    }
    return out + src.slice(from, c);
  };
  const stripTrailingWhitespace = () => {
    const last = tokens[tokens.length - 1];
    if (last !== undefined && last.type === "Text") {
      last.value = last.value.trimEnd();
      if (last.value === "") tokens.pop();
    }
  };
  const skipLeadingWhitespace = () => {
    while (c < n && isSpace(src.charCodeAt(c))) c++;
  };

  while (c < n) {
    const before = lastType();
    if (before === undefined || before === "CloseStatement" || before === "CloseExpression" || before === "Comment") {
      let end = src.indexOf("{", c);
      while (end >= 0 && !opensTag(src.charCodeAt(end + 1))) end = src.indexOf("{", end + 1);
      if (end < 0) end = n;
      if (end > c) {
        push(src.slice(c, end), "Text");
        c = end;
        continue;
      }
    }
    if (src.charCodeAt(c) === 123 && src.charCodeAt(c + 1) === 35) {
      c += 2;
      const stripBefore = src[c] === "-";
      if (stripBefore) ++c;
      const close = src.indexOf("#}", c);
      if (close < 0) throw new SyntaxError("Missing end of comment tag");
      let comment = src.slice(c, close);
      const stripAfter = comment.endsWith("-");
      if (stripAfter) comment = comment.slice(0, -1);
      if (stripBefore) stripTrailingWhitespace();
      push(comment, "Comment");
      c = close + 2;
      if (stripAfter) skipLeadingWhitespace();
      continue;
    }
    if (src.startsWith("{%-", c)) {
      stripTrailingWhitespace();
      push("{%", "OpenStatement");
      c += 3;
      continue;
    }
    if (src.startsWith("{{-", c)) {
      stripTrailingWhitespace();
      push("{{", "OpenExpression");
      curlyDepth = 0;
      c += 3;
      continue;
    }
    run(isSpace);
    if (src.startsWith("-%}", c)) {
      push("%}", "CloseStatement");
      c += 3;
      skipLeadingWhitespace();
      continue;
    }
    if (src.startsWith("-}}", c)) {
      push("}}", "CloseExpression");
      c += 3;
      skipLeadingWhitespace();
      continue;
    }
    const char = src[c]!;
    if (char === "-" || char === "+") {
      const last = lastType();
      if (last === "Text" || last === undefined) throw new SyntaxError(`Unexpected character: ${char}`);
      if (!OPERAND_ENDS.has(last)) {
        ++c;
        let num = run(isDigit);
        if (num.length > 0 && src[c] === "." && isDigit(src.charCodeAt(c + 1))) {
          ++c;
          num = `${num}.${run(isDigit)}`;
        }
        push(`${char}${num}`, num.length > 0 ? "NumericLiteral" : "UnaryOperator");
        continue;
      }
    }
    const sequence = operatorAt(src, c, curlyDepth);
    if (sequence !== undefined) {
      const type = OPERATOR_TYPES.get(sequence)!;
      push(sequence, type);
      if (type === "OpenExpression") curlyDepth = 0;
      else if (type === "OpenCurlyBracket") ++curlyDepth;
      else if (type === "CloseCurlyBracket") --curlyDepth;
      c += sequence.length;
      continue;
    }
    if (char === "'" || char === '"') {
      ++c;
      push(stringBody(char), "StringLiteral");
      ++c;
      continue;
    }
    const code = src.charCodeAt(c);
    if (isDigit(code)) {
      let num = run(isDigit);
      if (lastType() !== "Dot" && src[c] === "." && isDigit(src.charCodeAt(c + 1))) {
        ++c;
        num = `${num}.${run(isDigit)}`;
      }
      push(num, "NumericLiteral");
      continue;
    }
    if (isWordCode(code)) {
      push(run(isWordCode), "Identifier");
      continue;
    }
    throw new SyntaxError(`Unexpected character: ${char}`);
  }
  return tokens;
}

/**
 * `tokenize(template, options)` of the library, given `text` = the template after
 * `preprocessWithOffsets` (with the same options), in time linear in its length.
 */
export function tokenizeTemplate(text: string): JinjaToken[] {
  // A generation tag formed by removing another would be removed again by the library's pass.
  if (hasGenerationTag(text)) {
    throw new TemplateError(
      TEMPLATE_ERROR_CODES.syntax,
      "Template syntax error: removing a {% generation %} tag forms another one; write the template without nested generation tags.",
    );
  }
  return lex(text);
}
