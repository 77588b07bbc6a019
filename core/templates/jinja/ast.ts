/**
 * Annotations on the library's parsed AST. Nodes are the library's own objects; Strata adds a
 * symbol-keyed `NodeMeta` (invisible to the library, which only reads named fields) and a few
 * node types of its own (prefixed `Strata`) that only Strata's interpreter evaluates.
 */
import type { parse } from "./vendor/huggingface-jinja.js";
import { TemplateLimitError } from "./limits.ts";
import type { JinjaToken, SourcePosition } from "./source.ts";
import { closeOf } from "./structure.ts";

export type JinjaProgram = ReturnType<typeof parse>;

/** Structural view of any AST node: a `type` plus the library's named fields. */
export interface AstNode {
  type: string;
  [field: string]: unknown;
}

export const META: unique symbol = Symbol("strata.jinja.meta");

export interface NodeMeta {
  /** Position of the tag this statement starts with (or of its text). */
  pos?: SourcePosition;
  /** Token range [open, close] of that tag, for finer positions (volatility lint). */
  tag?: readonly [number, number];
  /** The node is a direct child of a block: its value is appended to the output. */
  appended?: boolean;
  /** An `{% elif %}`: evaluated at its parent `if`'s depth. */
  elif?: boolean;
}

type WithMeta = AstNode & { [META]?: NodeMeta };

export function metaOf(node: AstNode): NodeMeta | undefined {
  return (node as WithMeta)[META];
}

function meta(node: AstNode): NodeMeta {
  const n = node as WithMeta;
  return (n[META] ??= {});
}

/** Strata's own node types, evaluated by the sandboxed interpreter only. */
export const STRATA_NODE = {
  /** One loop iteration: counts against maxLoopIterations. */
  tick: "StrataLoopTick",
  /** A `for … if test` test: counts one iteration, then evaluates `inner`. */
  tickTest: "StrataLoopTest",
  /** A loop's iterable: charges its length as work, then is returned. */
  iterable: "StrataLoopIterable",
  /** An already evaluated runtime value. */
  value: "StrataValue",
} as const;

export function isNode(value: unknown): value is AstNode {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

/** Bodies (statement lists) of a block statement, in source order. */
export function bodiesOf(node: AstNode): AstNode[][] {
  switch (node.type) {
    case "Program":
    case "Set":
    case "Macro":
    case "CallStatement":
    case "FilterStatement":
      return [node["body"] as AstNode[]];
    case "If":
      return [node["body"] as AstNode[], node["alternate"] as AstNode[]];
    case "For":
      return [node["body"] as AstNode[], node["defaultBlock"] as AstNode[]];
    default:
      return [];
  }
}

/** Node types whose value is NOT appended text of their own (control flow, definitions). */
const NOT_APPENDED: ReadonlySet<string> = new Set([
  "If",
  "For",
  "Set",
  "Macro",
  "Comment",
  "Break",
  "Continue",
  "Program",
]);

function isElif(node: AstNode, child: AstNode): boolean {
  const alternate = node["alternate"] as AstNode[] | undefined;
  return node.type === "If" && child.type === "If" && alternate?.length === 1 && alternate[0] === child;
}

class AlignError extends Error {}

/**
 * Gives every statement the position of its tag by walking bodies alongside the tokens the
 * parser consumed them from. Returns false (and leaves positions unset) if they disagree.
 */
export function assignPositions(
  program: JinjaProgram,
  tokens: readonly JinjaToken[],
  positions: readonly (SourcePosition | undefined)[],
): boolean {
  let cursor = 0;
  const keywordAt = (i: number): string | undefined =>
    tokens[i]?.type === "OpenStatement" && tokens[i + 1]?.type === "Identifier" ? tokens[i + 1]!.value : undefined;
  const mark = (node: AstNode, open: number, close: number) => {
    const m = meta(node);
    const pos = positions[open];
    if (pos !== undefined) m.pos = pos;
    m.tag = [open, close];
  };
  const expectTag = (keyword: string) => {
    if (keywordAt(cursor) !== keyword) throw new AlignError(keyword);
    cursor = closeOf(tokens, cursor) + 1;
  };
  const walkBody = (body: AstNode[]) => {
    for (const node of body) walkStatement(node);
  };
  const walkIf = (node: AstNode) => {
    let current = node;
    for (;;) {
      walkBody(current["body"] as AstNode[]);
      const keyword = keywordAt(cursor);
      if (keyword === "elif") {
        const alternate = current["alternate"] as AstNode[];
        const next = alternate[0];
        if (alternate.length !== 1 || next === undefined || next.type !== "If") throw new AlignError("elif");
        mark(next, cursor, closeOf(tokens, cursor));
        meta(next).elif = true;
        cursor = closeOf(tokens, cursor) + 1;
        current = next;
        continue;
      }
      if (keyword === "else") {
        cursor = closeOf(tokens, cursor) + 1;
        walkBody(current["alternate"] as AstNode[]);
      }
      return;
    }
  };
  const walkStatement = (node: AstNode) => {
    const token = tokens[cursor];
    if (token === undefined) throw new AlignError("end");
    if (token.type === "Text") {
      if (node.type !== "StringLiteral") throw new AlignError("text");
      mark(node, cursor, cursor);
      cursor++;
      return;
    }
    if (token.type === "Comment") {
      if (node.type !== "Comment") throw new AlignError("comment");
      cursor++;
      return;
    }
    const close = closeOf(tokens, cursor);
    mark(node, cursor, close);
    if (token.type === "OpenExpression") {
      cursor = close + 1;
      return;
    }
    const keyword = keywordAt(cursor);
    cursor = close + 1;
    switch (node.type) {
      case "If":
        if (keyword !== "if") throw new AlignError("if");
        walkIf(node);
        expectTag("endif");
        return;
      case "For":
        if (keyword !== "for") throw new AlignError("for");
        walkBody(node["body"] as AstNode[]);
        if (keywordAt(cursor) === "else") {
          cursor = closeOf(tokens, cursor) + 1;
          walkBody(node["defaultBlock"] as AstNode[]);
        }
        expectTag("endfor");
        return;
      case "Set":
        if (keyword !== "set") throw new AlignError("set");
        if (node["value"] === null) {
          walkBody(node["body"] as AstNode[]);
          expectTag("endset");
        }
        return;
      case "Macro":
      case "CallStatement":
      case "FilterStatement": {
        const expected = node.type === "Macro" ? "macro" : node.type === "CallStatement" ? "call" : "filter";
        if (keyword !== expected) throw new AlignError(expected);
        walkBody(node["body"] as AstNode[]);
        expectTag(`end${expected}`);
        return;
      }
      case "Break":
      case "Continue":
        if (keyword !== node.type.toLowerCase()) throw new AlignError("loop control");
        return;
      default:
        throw new AlignError(node.type);
    }
  };
  try {
    walkBody(program.body as unknown as AstNode[]);
    if (cursor !== tokens.length) throw new AlignError("trailing tokens");
    return true;
  } catch (error) {
    if (!(error instanceof AlignError)) throw error;
    clearPositions(program as unknown as AstNode);
    return false;
  }
}

function clearPositions(node: AstNode): void {
  for (const body of bodiesOf(node)) {
    for (const child of body) {
      const m = metaOf(child);
      if (m !== undefined) {
        delete m.pos;
        delete m.tag;
      }
      clearPositions(child);
    }
  }
}

/**
 * Child nodes of any node, in field order (arrays, Maps of object literals, nested nodes).
 * `operator` fields hold lexer tokens, not nodes, and are skipped.
 */
export function childrenOf(node: AstNode): AstNode[] {
  const out: AstNode[] = [];
  for (const [field, value] of Object.entries(node)) {
    if (field === "operator") continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) out.push(item);
    } else if (value instanceof Map) {
      for (const [key, item] of value) {
        if (isNode(key)) out.push(key);
        if (isNode(item)) out.push(item);
      }
    } else if (isNode(value)) out.push(value);
  }
  return out;
}

/**
 * Rejects templates whose syntax tree nests deeper than `maxDepth` (iteratively, so a
 * 100,000-term `a ~ b ~ …` cannot overflow this check). `{% elif %}` does not add depth.
 * Visits the children `childrenOf` lists, in the same order, without building their arrays:
 * this runs on every compile, over every node.
 */
export function checkTreeDepth(program: JinjaProgram, maxDepth: number): void {
  const nodes: AstNode[] = [program as unknown as AstNode];
  const depths: number[] = [1];
  const inherited: (SourcePosition | undefined)[] = [undefined];
  const push = (child: unknown, depth: number, pos: SourcePosition | undefined) => {
    if (!isNode(child)) return;
    nodes.push(child);
    depths.push(depth);
    inherited.push(pos);
  };
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    const above = inherited.pop();
    const pos = metaOf(node)?.pos ?? above;
    if (depth > maxDepth) {
      throw new TemplateLimitError("maxDepth", maxDepth, `The template nests ${depth} levels deep`, pos);
    }
    const next = depth + 1;
    const elif = node.type === "If" ? (node["alternate"] as AstNode[] | undefined) : undefined;
    for (const field of Object.keys(node)) {
      if (field === "operator") continue;
      const value = node[field];
      if (typeof value !== "object" || value === null) continue;
      if (Array.isArray(value)) {
        // An `{% elif %}` is its `if`'s only alternate: see isElif.
        const elifDepth = elif === value && value.length === 1 ? depth : next;
        for (const item of value) push(item, isNode(item) && item.type === "If" ? elifDepth : next, pos);
      } else if (value instanceof Map) {
        for (const [key, item] of value) {
          push(key, next, pos);
          push(item, next, pos);
        }
      } else push(value, next, pos);
    }
  }
}

/**
 * Marks appended statements, counts loop iterations (a tick at the start of every `for` body,
 * or inside the test of `for … if test`) and charges each loop's iterable as work.
 */
export function instrument(program: JinjaProgram): void {
  const visit = (node: AstNode) => {
    for (const body of bodiesOf(node)) {
      for (const child of body) {
        if (!NOT_APPENDED.has(child.type)) meta(child).appended = true;
        visit(child);
      }
    }
    const first = (node["alternate"] as AstNode[] | undefined)?.[0];
    if (first !== undefined && isElif(node, first)) meta(first).elif = true;
    if (node.type === "For") {
      const iterable = node["iterable"] as AstNode;
      if (iterable.type === "SelectExpression") {
        iterable["lhs"] = { type: STRATA_NODE.iterable, inner: iterable["lhs"] };
        iterable["test"] = { type: STRATA_NODE.tickTest, inner: iterable["test"] };
      } else {
        node["iterable"] = { type: STRATA_NODE.iterable, inner: iterable };
        (node["body"] as AstNode[]).unshift({ type: STRATA_NODE.tick });
      }
    }
  };
  visit(program as unknown as AstNode);
}
