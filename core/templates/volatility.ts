/**
 * `lintTemplateVolatility`: finds values in a template that change between requests
 * (`system.current_time`, `conversation.duration`, ids …). A template in the cache-stable part
 * of a prompt that renders one of them makes every request's prefix different from that point
 * on, and provider prompt caches (OpenAI, Anthropic, Gemini) only ever match an identical prefix.
 *
 * Found on the parsed AST (never in text, strings or comments), with scoping: a loop variable
 * or `{% set %}` named `message` shadows the namespace; `{% set s = system %}` makes `s` an
 * alias. Positions point at the variable inside its tag.
 */
import type { AstNode } from "./jinja/ast.ts";
import { childrenOf, metaOf } from "./jinja/ast.ts";
import type { JinjaCompileOptions } from "./jinja/compile.ts";
import { compileJinjaTemplate } from "./jinja/compile.ts";
import type { JinjaToken, SourcePosition } from "./jinja/source.ts";
import { definedFields } from "../util/plain-object.ts";

export type TemplateVolatility = "per_request" | "per_day" | "per_conversation";

export interface VolatileVariable {
  readonly volatility: TemplateVolatility;
  /** How often it changes, for the message. */
  readonly changes: string;
}

/** Variables of `buildPromptContext` that are not stable across requests. */
export const TEMPLATE_VOLATILE_VARIABLES: Readonly<Record<string, VolatileVariable>> = Object.freeze({
  "system.current_time": { volatility: "per_request", changes: "every second" },
  "system.current_datetime": { volatility: "per_request", changes: "every second" },
  "system.date_unix": { volatility: "per_request", changes: "every second" },
  "system.date_unix_ms": { volatility: "per_request", changes: "every millisecond" },
  "system.date_rfc1123": { volatility: "per_request", changes: "every second" },
  "system.current_date": { volatility: "per_day", changes: "once a day, at 00:00 UTC" },
  "system.day_of_week": { volatility: "per_day", changes: "once a day, at 00:00 UTC" },
  "conversation.duration": { volatility: "per_request", changes: "on every turn (it grows)" },
  "conversation.updated_date": { volatility: "per_request", changes: "whenever the conversation is updated" },
  "conversation.id": { volatility: "per_conversation", changes: "in every conversation" },
  "conversation.identifier": { volatility: "per_conversation", changes: "in every conversation" },
  "conversation.created_date": { volatility: "per_conversation", changes: "in every conversation" },
  "message.text": { volatility: "per_request", changes: "on every turn (it is the current user message)" },
  "message.language": { volatility: "per_request", changes: "whenever the user switches language" },
});

const NAMESPACES: ReadonlySet<string> = new Set(["system", "conversation", "message"]);
/** Root-level names hosts often pass the clock under (flattened arguments). */
const ROOT_ALIASES: ReadonlySet<string> = new Set(
  Object.keys(TEMPLATE_VOLATILE_VARIABLES)
    .filter((v) => v.startsWith("system."))
    .map((v) => v.slice("system.".length)),
);

export interface TemplateVolatilityWarning {
  readonly code: "volatile_template_variable";
  /** What the template reads: `system.current_time`, `system` (the whole namespace), `current_time` (a root alias), `strftime_now()`. */
  readonly variable: string;
  readonly volatility: TemplateVolatility;
  /** 1-based, in the template source; absent when positions could not be computed. */
  readonly line?: number;
  readonly column?: number;
  /** Why it breaks provider prompt caches and what to do. */
  readonly reason: string;
}

export interface VolatilityLintOptions extends JinjaCompileOptions {
  /** Variables to accept, e.g. `["system.current_date"]` for a prompt that is rebuilt daily anyway. */
  readonly ignore?: readonly string[];
  /** Also flag bare root names such as `{{ current_time }}`. Default `true`. */
  readonly rootAliases?: boolean;
}

const IMPACT: Readonly<Record<TemplateVolatility, string>> = {
  per_request:
    "so the rendered text differs on every request from this point on; provider prompt caches (OpenAI, Anthropic, Gemini) only match an identical prefix and miss for everything after it",
  per_day: "so the first request of each day misses the provider prompt cache from this point on",
  per_conversation:
    "so the prompt from this point on can never be shared across conversations: every conversation pays for it uncached once",
};
const ADVICE =
  "Move it out of the cache-stable part (into the latest user turn or after the last cache breakpoint), or drop it.";

function reasonFor(variable: string, info: VolatileVariable, via?: string): string {
  return `"${variable}"${via === undefined ? "" : ` (${via})`} changes ${info.changes}, ${IMPACT[info.volatility]}. ${ADVICE}`;
}

/** Statement header expressions (what sits in the statement's own tag), and its bodies. */
function parts(node: AstNode): { header: AstNode[]; bodies: AstNode[][]; binds: string[] } {
  const list = (v: unknown) =>
    Array.isArray(v) ? (v as AstNode[]) : v === null || v === undefined ? [] : [v as AstNode];
  const names = (v: unknown): string[] =>
    list(v).flatMap((n) =>
      n.type === "Identifier" ? [n["value"] as string] : n.type === "TupleLiteral" ? names(n["value"]) : [],
    );
  const paramNames = (v: unknown): string[] =>
    list(v).flatMap((n) =>
      n.type === "Identifier"
        ? [n["value"] as string]
        : n.type === "KeywordArgumentExpression"
          ? [(n["key"] as { value: string }).value]
          : [],
    );
  const defaults = (v: unknown): AstNode[] =>
    list(v).flatMap((n) => (n.type === "KeywordArgumentExpression" ? [n["value"] as AstNode] : []));
  switch (node.type) {
    case "If":
      return {
        header: [node["test"] as AstNode],
        bodies: [node["body"] as AstNode[], node["alternate"] as AstNode[]],
        binds: [],
      };
    case "For":
      return {
        header: [node["iterable"] as AstNode],
        bodies: [node["body"] as AstNode[], node["defaultBlock"] as AstNode[]],
        binds: names(node["loopvar"]),
      };
    case "Set":
      return { header: list(node["value"]), bodies: [node["body"] as AstNode[]], binds: names(node["assignee"]) };
    case "Macro":
      return {
        header: defaults(node["args"]),
        bodies: [node["body"] as AstNode[]],
        binds: [...names(node["name"]), ...paramNames(node["args"])],
      };
    case "CallStatement":
      return {
        header: [node["call"] as AstNode, ...defaults(node["callerArgs"])],
        bodies: [node["body"] as AstNode[]],
        binds: paramNames(node["callerArgs"]),
      };
    case "FilterStatement":
      return { header: [node["filter"] as AstNode], bodies: [node["body"] as AstNode[]], binds: [] };
    case "Comment":
    case "Break":
    case "Continue":
      return { header: [], bodies: [], binds: [] };
    default:
      // Text is a StringLiteral without expressions; Strata's loop ticks have no children.
      if (
        node.type.startsWith("Strata") ||
        (node.type === "StringLiteral" && metaOf(node)?.tag?.[0] === metaOf(node)?.tag?.[1])
      ) {
        return { header: [], bodies: [], binds: [] };
      }
      return { header: [node], bodies: [], binds: [] };
  }
}

interface Finding {
  readonly variable: string;
  readonly info: VolatileVariable;
  readonly via?: string;
  /** Token pattern to locate inside the tag: a name, optionally followed by a property. */
  readonly name: string;
  readonly property?: string;
  readonly tag: readonly [number, number] | undefined;
  readonly fallback: SourcePosition | undefined;
}

function locate(
  tokens: readonly JinjaToken[],
  positions: readonly (SourcePosition | undefined)[],
  finding: Finding,
  used: Set<number>,
): SourcePosition | undefined {
  if (finding.tag === undefined) return finding.fallback;
  const [open, close] = finding.tag;
  for (let i = open; i <= close; i++) {
    const t = tokens[i]!;
    if (used.has(i) || t.type !== "Identifier" || t.value !== finding.name || tokens[i - 1]?.type === "Dot") continue;
    const next = tokens[i + 1];
    const accessed =
      (next?.type === "Dot" && tokens[i + 2]?.type === "Identifier" ? tokens[i + 2]!.value : undefined) ??
      (next?.type === "OpenSquareBracket" && tokens[i + 2]?.type === "StringLiteral"
        ? tokens[i + 2]!.value
        : undefined);
    if (finding.property !== undefined ? accessed !== finding.property : accessed !== undefined) continue;
    used.add(i);
    return positions[i] ?? finding.fallback;
  }
  return finding.fallback;
}

export function lintTemplateVolatility(
  template: string,
  options: VolatilityLintOptions = {},
): TemplateVolatilityWarning[] {
  const compiled = compileJinjaTemplate(template, options);
  const ignore = new Set(options.ignore ?? []);
  const rootAliases = options.rootAliases ?? true;
  const findings: Finding[] = [];

  const scan = (node: AstNode, scope: ReadonlyMap<string, string | null>, tagNode: AstNode) => {
    const tag = metaOf(tagNode)?.tag;
    const fallback = metaOf(tagNode)?.pos;
    const rootOf = (name: string): string | undefined => {
      if (scope.has(name)) return scope.get(name) ?? undefined;
      return NAMESPACES.has(name) ? name : undefined;
    };
    const add = (variable: string, name: string, property?: string, via?: string) => {
      const info =
        TEMPLATE_VOLATILE_VARIABLES[variable] ??
        (NAMESPACES.has(variable)
          ? { volatility: "per_request" as const, changes: `with its ${variable}.* values` }
          : undefined);
      if (info === undefined || ignore.has(variable)) return;
      findings.push({
        variable,
        info,
        name,
        tag,
        fallback,
        ...definedFields({ property, via }),
      });
    };
    const visit = (n: AstNode, parent: AstNode | undefined) => {
      switch (n.type) {
        case "MemberExpression": {
          const object = n["object"] as AstNode;
          const property = n["property"] as AstNode;
          const name =
            n["computed"] === true
              ? property.type === "StringLiteral"
                ? (property["value"] as string)
                : undefined
              : (property["value"] as string);
          const root = object.type === "Identifier" ? rootOf(object["value"] as string) : undefined;
          if (root !== undefined && name !== undefined) {
            const written = object["value"] as string;
            add(`${root}.${name}`, written, name, written === root ? undefined : `through the alias "${written}"`);
            return;
          }
          visit(object, n);
          if (n["computed"] === true) visit(property, n);
          return;
        }
        case "Identifier": {
          const name = n["value"] as string;
          const root = rootOf(name);
          if (root !== undefined) {
            if (parent?.type !== "TestExpression") add(root, name, undefined, "the whole namespace");
          } else if (rootAliases && ROOT_ALIASES.has(name) && !scope.has(name)) {
            const info = TEMPLATE_VOLATILE_VARIABLES[`system.${name}`]!;
            if (!ignore.has(name))
              findings.push({
                variable: name,
                info,
                name,
                tag,
                fallback,
                via: `a root-level name, usually system.${name} passed flat`,
              });
          }
          return;
        }
        case "CallExpression": {
          const callee = n["callee"] as AstNode;
          if (
            callee.type === "Identifier" &&
            callee["value"] === "strftime_now" &&
            !scope.has("strftime_now") &&
            !ignore.has("strftime_now()")
          ) {
            const format = (n["args"] as AstNode[])[0];
            const literal = format?.type === "StringLiteral" ? (format["value"] as string) : "%H";
            const info: VolatileVariable = /%[HIMpSsTXcf]/.test(literal)
              ? { volatility: "per_request", changes: "every minute or second (its format prints the time)" }
              : { volatility: "per_day", changes: "once a day, at 00:00 UTC" };
            findings.push({ variable: "strftime_now()", info, name: "strftime_now", tag, fallback });
          } else if (callee.type !== "Identifier") visit(callee, n);
          for (const arg of n["args"] as AstNode[]) visit(arg, n);
          return;
        }
        case "FilterExpression":
        case "FilterStatement": {
          if (n.type === "FilterExpression") visit(n["operand"] as AstNode, n);
          const filter = n["filter"] as AstNode;
          if (filter.type === "CallExpression") for (const arg of filter["args"] as AstNode[]) visit(arg, filter);
          return;
        }
        case "TestExpression":
          visit(n["operand"] as AstNode, n);
          return;
        case "KeywordArgumentExpression":
          visit(n["value"] as AstNode, n);
          return;
        default:
          for (const child of childrenOf(n)) visit(child, n);
      }
    };
    visit(node, undefined);
  };

  const resolveRoot = (scope: ReadonlyMap<string, string | null>, name: string): string | undefined =>
    scope.has(name) ? (scope.get(name) ?? undefined) : NAMESPACES.has(name) ? name : undefined;
  const walk = (body: readonly AstNode[], inherited: ReadonlyMap<string, string | null>) => {
    const scope = new Map(inherited);
    for (const node of body) {
      const { header, bodies, binds } = parts(node);
      if (node.type === "Set") {
        // `{% set s = system %}` makes `s` an alias, not a use; other sets shadow the name.
        const value = header.length === 1 ? header[0]! : undefined;
        const alias = value?.type === "Identifier" ? resolveRoot(scope, value["value"] as string) : undefined;
        if (alias === undefined) for (const expr of header) scan(expr, scope, node);
        walk(bodies[0] ?? [], scope);
        for (const name of binds) scope.set(name, alias ?? null);
        continue;
      }
      for (const expr of header) scan(expr, scope, node);
      const inner = new Map(scope);
      for (const name of binds) inner.set(name, null);
      if (node.type === "Macro" && binds[0] !== undefined) scope.set(binds[0], null);
      for (const b of bodies) walk(b, inner);
    }
  };
  walk(compiled.program.body as unknown as AstNode[], new Map());

  const used = new Set<number>();
  const warnings = findings.map((finding): TemplateVolatilityWarning => {
    const position = locate(compiled.tokens, compiled.positions, finding, used);
    return {
      code: "volatile_template_variable",
      variable: finding.variable,
      volatility: finding.info.volatility,
      ...(position === undefined ? {} : { line: position.line, column: position.column }),
      reason: reasonFor(finding.variable, finding.info, finding.via),
    };
  });
  return warnings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}
