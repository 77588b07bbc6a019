/**
 * `resolvePromptCandidates`: plugins + runtime context → ordered `BudgetedSection[]` for
 * `composeBudgetedPrompt`.
 *
 * Order: slots in `PROMPT_SLOTS` order (persona, core, body). Within a slot, prepended
 * contributions first, then (core slot only) replaced core fragments in
 * `ALL_CORE_FRAGMENT_TEMPLATE_IDS` order, then appended contributions. Prepends and appends keep
 * registration order: plugin order, then each plugin's `contributePrompts()` followed by its
 * `contributeRuntimeAwarePrompts(context)`.
 *
 * A contribution is left out when its tier is informational and `context.depth` ≥ 3, when its
 * scope does not match, when its gate returns false, or when its content is "". Content is
 * `condensed` (if given) when `context.depth` ≥ 2.
 */
import { shouldCondense, skipInformational } from "./predicates.ts";
import type { BudgetedSection } from "./tier-gate-types.ts";
import { PROMPT_TIERS } from "./tier-gate-types.ts";
import { InvalidInputError } from "../util/errors.ts";
import { ALL_CORE_FRAGMENT_TEMPLATE_IDS, isCoreFragmentTemplateId } from "./fragments.ts";
import { PROMPT_CONTRIBUTION_MODES, PROMPT_SLOTS } from "./contribution-types.ts";
import type {
  HarnessPlugin,
  PromptContent,
  PromptContribution,
  PromptRuntimeContext,
  PromptScope,
  PromptSlot,
} from "./contribution-types.ts";

interface Placed {
  readonly section: BudgetedSection;
  readonly path: string;
}

function fail(path: string, message: string, cause?: unknown): never {
  throw new InvalidInputError(
    path,
    message,
    cause === undefined ? { code: "invalid_contribution" } : { cause, code: "contribution_failed" },
  );
}

function call<T>(path: string, what: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return fail(path, `${what} threw: ${reason}`, error);
  }
}

function checkScope(scope: unknown, path: string): void {
  if (scope === null || typeof scope !== "object" || Array.isArray(scope))
    fail(path, 'must be an object such as { channel: "slack" }.');
  for (const [key, value] of Object.entries(scope)) {
    const ok = typeof value === "string" || (Array.isArray(value) && value.every((v) => typeof v === "string"));
    if (!ok) fail(`${path}.${key}`, "must be a string or an array of strings.");
  }
}

function checkContribution(c: PromptContribution, path: string): void {
  if (c === null || typeof c !== "object")
    fail(
      path,
      "expected a contribution; build one with appendPrompt, prependPersona, replaceCore, scopedPrompt or gatedPrompt.",
    );
  if (!(PROMPT_CONTRIBUTION_MODES as readonly unknown[]).includes(c.mode))
    fail(`${path}.mode`, `must be "prepend", "append" or "replace", got ${JSON.stringify(c.mode) ?? "undefined"}.`);
  if (!(PROMPT_SLOTS as readonly unknown[]).includes(c.slot))
    fail(`${path}.slot`, `must be "persona", "core" or "body", got ${JSON.stringify(c.slot) ?? "undefined"}.`);
  if (!(PROMPT_TIERS as readonly unknown[]).includes(c.tier))
    fail(`${path}.tier`, `must be "core", "active" or "informational", got ${JSON.stringify(c.tier) ?? "undefined"}.`);
  if (typeof c.content !== "string" && typeof c.content !== "function")
    fail(`${path}.content`, "must be a string or a function of the runtime context.");
  if (c.condensed !== undefined && typeof c.condensed !== "string" && typeof c.condensed !== "function")
    fail(`${path}.condensed`, "must be a string or a function of the runtime context.");
  if (c.id !== undefined && (typeof c.id !== "string" || c.id === ""))
    fail(`${path}.id`, "must be a non-empty string.");
  if (c.when !== undefined && typeof c.when !== "function")
    fail(`${path}.when`, "must be a function (context) => boolean.");
  if (c.scope !== undefined) checkScope(c.scope, `${path}.scope`);
  if (c.mode === "replace") {
    if (c.slot !== "core") fail(`${path}.slot`, 'replace contributions belong to the "core" slot.');
    if (!isCoreFragmentTemplateId(c.fragmentId)) {
      fail(
        `${path}.fragmentId`,
        `${JSON.stringify(c.fragmentId) ?? "undefined"} is not a core fragment id; use one of ${ALL_CORE_FRAGMENT_TEMPLATE_IDS.join(", ")}.`,
      );
    }
  }
}

function scopeMatches(scope: PromptScope, context: PromptRuntimeContext): boolean {
  for (const key of Object.keys(scope)) {
    const actual = context.scope?.[key];
    const wanted = scope[key];
    if (actual === undefined || wanted === undefined) return false;
    if (typeof wanted === "string" ? actual !== wanted : !wanted.includes(actual)) return false;
  }
  return true;
}

function render(content: PromptContent, context: PromptRuntimeContext, path: string): string {
  if (typeof content === "string") return content;
  const text = call(path, "content function", () => content(context));
  if (typeof text !== "string")
    fail(path, `content function must return a string, got ${text === null ? "null" : typeof text}.`);
  return text;
}

function collect(
  plugin: HarnessPlugin,
  index: number,
  context: PromptRuntimeContext,
): { c: PromptContribution; path: string }[] {
  const at = `plugins[${index}] (${JSON.stringify(plugin.name)})`;
  const out: { c: PromptContribution; path: string }[] = [];
  const take = (list: unknown, where: string) => {
    if (list === undefined) return;
    if (!Array.isArray(list)) fail(`${at}.${where}`, "must return an array of contributions.");
    list.forEach((c: PromptContribution, k) => out.push({ c, path: `${at}.${where}[${k}]` }));
  };
  if (plugin.contributePrompts !== undefined) {
    take(
      call(at, "contributePrompts()", () => plugin.contributePrompts?.()),
      "contributePrompts()",
    );
  }
  if (plugin.contributeRuntimeAwarePrompts !== undefined) {
    take(
      call(at, "contributeRuntimeAwarePrompts()", () => plugin.contributeRuntimeAwarePrompts?.(context)),
      "contributeRuntimeAwarePrompts()",
    );
  }
  return out;
}

/** Turns plugins and the runtime context into ordered composer candidates (see the module comment). */
export function resolvePromptCandidates(
  plugins: readonly HarnessPlugin[],
  context: PromptRuntimeContext = {},
): BudgetedSection[] {
  if (!Array.isArray(plugins)) fail("plugins", "expected an array of plugins (see createPlugin).");
  const depth = context.depth;
  if (depth !== undefined && (!Number.isInteger(depth) || depth < 0))
    fail("context.depth", `must be a non-negative integer, got ${String(depth)}.`);
  const condense = depth !== undefined && shouldCondense(depth);
  const skipInfo = depth !== undefined && skipInformational(depth);

  const prepends = new Map<PromptSlot, Placed[]>(PROMPT_SLOTS.map((slot) => [slot, []]));
  const appends = new Map<PromptSlot, Placed[]>(PROMPT_SLOTS.map((slot) => [slot, []]));
  const fragments = new Map<string, Placed>();
  const ids = new Map<string, string>();
  const names = new Map<string, number>();

  plugins.forEach((plugin, index) => {
    if (plugin === null || typeof plugin !== "object" || typeof plugin.name !== "string" || plugin.name === "") {
      fail(`plugins[${index}].name`, "a plugin needs a non-empty name.");
    }
    const other = names.get(plugin.name);
    if (other !== undefined)
      fail(
        `plugins[${index}].name`,
        `${JSON.stringify(plugin.name)} is also the name of plugins[${other}]; plugin names must be unique.`,
      );
    names.set(plugin.name, index);

    collect(plugin, index, context).forEach(({ c, path }, n) => {
      checkContribution(c, path);
      if (skipInfo && c.tier === "informational") return;
      if (c.scope !== undefined && !scopeMatches(c.scope, context)) return;
      if (c.when !== undefined) {
        const gate = c.when;
        const open = call(`${path}.when`, "gate", () => gate(context));
        if (typeof open !== "boolean") fail(`${path}.when`, `must return true or false, got ${typeof open}.`);
        if (!open) return;
      }
      const content = render(
        condense && c.condensed !== undefined ? c.condensed : c.content,
        context,
        `${path}.content`,
      );
      if (content === "") return;

      const id = c.mode === "replace" ? c.fragmentId : `${plugin.name}:${c.id ?? `${c.mode}-${n}`}`;
      const clash = ids.get(id);
      if (clash !== undefined) {
        fail(
          path,
          c.mode === "replace"
            ? `core fragment ${JSON.stringify(id)} is already replaced by ${clash}; replace each fragment once.`
            : `section id ${JSON.stringify(id)} is already used by ${clash}; give the contribution a unique id.`,
        );
      }
      ids.set(id, path);
      const placed: Placed = { section: { id, content, tier: c.tier, chars: content.length }, path };
      if (c.mode === "replace") fragments.set(id, placed);
      else (c.mode === "prepend" ? prepends : appends).get(c.slot)?.push(placed);
    });
  });

  const out: BudgetedSection[] = [];
  for (const slot of PROMPT_SLOTS) {
    for (const p of prepends.get(slot) ?? []) out.push(p.section);
    if (slot === "core") {
      for (const fragmentId of ALL_CORE_FRAGMENT_TEMPLATE_IDS) {
        const p = fragments.get(fragmentId);
        if (p !== undefined) out.push(p.section);
      }
    }
    for (const p of appends.get(slot) ?? []) out.push(p.section);
  }
  return out;
}
