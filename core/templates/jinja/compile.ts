/**
 * Template source → annotated AST, with every rejection a positioned `TemplateError`:
 * length limit, lexer errors (located by a scan of the source), block structure and nesting
 * (before the recursive parser runs), parser errors (located by watching which token the
 * parser read last), and tree depth.
 */
import { parse } from "./vendor/huggingface-jinja.js";
import { InvalidInputError } from "../../util/errors.ts";
import { TemplateError } from "../errors.ts";
import { utf8Length } from "../../util/utf8.ts";
import type { JinjaProgram } from "./ast.ts";
import { assignPositions, checkTreeDepth, instrument } from "./ast.ts";
import { friendlyMessage, positionSuffix } from "./interpreter.ts";
import type { TemplateLimits } from "./limits.ts";
import { TEMPLATE_ERROR_CODES, TemplateLimitError, resolveTemplateLimits } from "./limits.ts";
import type { JinjaToken, SourcePosition, WhitespaceOptions } from "./source.ts";
import { LineIndex, alignTokens, locateLexerError, originalOffset, preprocessWithOffsets } from "./source.ts";
import { checkStructure } from "./structure.ts";
import { tokenizeTemplate } from "./lexer.ts";

export interface JinjaCompileOptions {
  /** Hard limits; unspecified ones use `DEFAULT_TEMPLATE_LIMITS`. */
  readonly limits?: Partial<TemplateLimits>;
  /**
   * Remove the first newline after a block tag (Jinja's `trim_blocks`). Default `true`, as
   * Hugging Face chat templates are written for it.
   */
  readonly trimBlocks?: boolean;
  /** Strip spaces and tabs before a block tag at the start of a line (`lstrip_blocks`). Default `true`. */
  readonly lstripBlocks?: boolean;
}

/** A parsed, checked and instrumented template; render it with `renderCompiledJinjaTemplate`. */
export interface CompiledJinjaTemplate {
  readonly source: string;
  readonly limits: TemplateLimits;
  readonly program: JinjaProgram;
  /** The tokens the parser read (autoescape tags removed) and their positions in `source`. */
  readonly tokens: readonly JinjaToken[];
  readonly positions: readonly (SourcePosition | undefined)[];
}

function syntaxError(message: string, position: SourcePosition | undefined, cause?: unknown): TemplateError {
  return new TemplateError(
    TEMPLATE_ERROR_CODES.syntax,
    `Template syntax error${positionSuffix(position)}: ${friendlyMessage(message)}`,
    position,
    cause === undefined ? undefined : { cause },
  );
}

/** Index of the token the parser read last before failing (`tokens.length` = end of template). */
function lastTokenRead(tokens: readonly JinjaToken[]): number {
  let last = -1;
  const watched = new Proxy(tokens as JinjaToken[], {
    get(target, property, receiver) {
      if (typeof property === "string" && /^\d+$/.test(property)) last = Number(property);
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  try {
    parse(watched);
  } catch {
    // expected: the same failure again, now observed
  }
  return last;
}

function parseMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof TypeError && /undefined/.test(message)) return "the template ends inside an expression or tag";
  return message.replace(/^Parser Error: /, "");
}

export function compileJinjaTemplate(template: string, options: JinjaCompileOptions = {}): CompiledJinjaTemplate {
  if (typeof template !== "string")
    throw new InvalidInputError("template", `must be a string, got ${typeof template}.`);
  const limits = resolveTemplateLimits(options.limits);
  const whitespace: WhitespaceOptions = {
    trimBlocks: options.trimBlocks ?? true,
    lstripBlocks: options.lstripBlocks ?? true,
  };
  if (
    template.length > limits.maxTemplateBytes ||
    utf8Length(template, limits.maxTemplateBytes) > limits.maxTemplateBytes
  ) {
    throw new TemplateLimitError(
      "maxTemplateBytes",
      limits.maxTemplateBytes,
      `The template is longer than ${limits.maxTemplateBytes} bytes of UTF-8 (${template.length} characters)`,
    );
  }
  const lines = new LineIndex(template);
  const pre = preprocessWithOffsets(template, whitespace);
  const at = (offset: number | undefined): SourcePosition | undefined =>
    offset === undefined ? undefined : lines.at(originalOffset(pre, offset) ?? template.length);

  let rawTokens: JinjaToken[];
  try {
    rawTokens = tokenizeTemplate(pre.text);
  } catch (error) {
    if (error instanceof TemplateError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw syntaxError(message, at(locateLexerError(pre.text, message)), error);
  }
  const starts = alignTokens(rawTokens, pre.text);
  const rawPositions = rawTokens.map((_, i) => at(starts?.[i]));
  const { tokens, positions } = checkStructure(rawTokens, rawPositions, limits.maxDepth);

  let program: JinjaProgram;
  try {
    program = parse(tokens);
  } catch (error) {
    const index = lastTokenRead(tokens);
    const position = index >= 0 && index < tokens.length ? positions[index] : lines.at(template.length);
    if (error instanceof RangeError) {
      throw new TemplateLimitError("maxDepth", limits.maxDepth, "The template nests too deep to parse", position);
    }
    throw syntaxError(parseMessage(error), position, error);
  }
  if (starts !== undefined) assignPositions(program, tokens, positions);
  checkTreeDepth(program, limits.maxDepth);
  instrument(program);
  return { source: template, limits, program, tokens, positions };
}
