/** Spec 001: the tiered budget composer, its explanation, contributions and section builders. */
import { composeBudgetedPrompt, explainBudgetedPrompt } from "../../../core/index.ts";
import { sha256Hex } from "../../../core/cache/index.ts";
import {
  appendPrompt,
  buildExhaustedToolsSection,
  buildPriorTruncationRecoverySection,
  buildPromptBuiltEvent,
  buildProviderErrorRecoverySection,
  buildRecentToolErrorsSection,
  buildToolGuidanceSection,
  buildUserRequestedToolsSection,
  createGuidanceRegistry,
  createPlugin,
  gatedPrompt,
  prependPersona,
  resolveGuidance,
  resolvePromptCandidates,
  scopedPrompt,
} from "../../../core/composer/index.ts";
import type { BudgetConfig, BudgetedSectionInput, ComposedPrompt } from "../../../core/index.ts";
import { cases, json, outcome } from "../support.ts";
import { TRICKY_TEXT } from "./messages.ts";

const candidates: BudgetedSectionInput[] = [
  { id: "persona", tier: "core", content: "You are Strata's golden-vector assistant." },
  { id: "rules", tier: "core", content: "Follow the rules.\n- Be exact.\n- Cite sources." },
  { id: "tools", tier: "active", content: "Tools: search, fetch, calc. ".repeat(4) },
  { id: "recent-errors", tier: "active", content: "search failed twice with 429." },
  { id: "unicode", tier: "active", content: TRICKY_TEXT },
  { id: "examples", tier: "informational", content: "Example: Q: 2+2? A: 4. ".repeat(10) },
  { id: "declared-chars", tier: "informational", content: "short", chars: 40 },
  { id: "style", tier: "informational", content: "Prefer plain words." },
];

/** Everything a composition returns, with the lazily computed records read out. */
const composition = (result: ComposedPrompt): string =>
  json({
    ...result,
    sectionChars: result.sectionChars,
    droppedChars: result.droppedChars,
    event: buildPromptBuiltEvent(result),
  });

const BUDGETS: readonly (readonly [string, BudgetConfig])[] = [
  ["no budget", { depth: 0 }],
  ["roomy budget", { depth: 0, totalBudget: 1_000 }],
  ["tight budget drops informational first", { depth: 0, totalBudget: 300 }],
  ["fraction 0.7", { depth: 0, totalBudget: 300, activeBudgetFraction: 0.7 }],
  ["fractional budget is floored", { depth: 0, totalBudget: 299.9 }],
  ["core overflows", { depth: 0, totalBudget: 50 }],
  [
    "resolver by depth and role",
    {
      depth: 2,
      runtimeRole: "planner",
      resolveBudget: ({ depth, runtimeRole }) => (runtimeRole === "planner" ? 400 - depth * 50 : 0),
    },
  ],
];

const registry = createGuidanceRegistry([
  { match: { toolName: "search_*" }, mode: "prefix", text: "Quote the query you used." },
  { match: { toolName: "*" }, mode: "suffix", text: "Stop after three failed calls." },
  { match: { toolName: "search_web" }, mode: "suffix", text: "Prefer primary sources." },
]);

const plugins = [
  createPlugin({
    name: "base",
    prompts: [
      prependPersona("You are a research assistant."),
      appendPrompt({ id: "method", content: "Work step by step.", condensed: "Be stepwise." }),
      appendPrompt({ id: "trivia", tier: "informational", content: "Fun fact: octopuses have three hearts." }),
    ],
  }),
  createPlugin({
    name: "team",
    prompts: [
      scopedPrompt({ id: "legal", scope: { team: ["legal", "compliance"] }, content: "Flag regulatory risk." }),
      scopedPrompt({ id: "sales", scope: { team: "sales" }, content: "Mention pricing tiers." }),
      gatedPrompt({
        id: "retry",
        when: (ctx) => ctx.state?.["retrying"] === true,
        content: (ctx) => `Retry #${String(ctx.state?.["attempt"])}.`,
      }),
    ],
  }),
];

export const composerCases = [
  ...cases(
    "composer",
    BUDGETS.map(([name, config]) => [name, () => composition(composeBudgetedPrompt(candidates, config))] as const),
  ),
  ...cases(
    "composer-explain",
    BUDGETS.map(([name, config]) => [name, () => json(explainBudgetedPrompt(candidates, config))] as const),
  ),
  ...cases("composer", [
    ["empty candidates", () => composition(composeBudgetedPrompt([], { depth: 0, totalBudget: 10 }))],
    [
      "duplicate id is an error",
      () => outcome(() => composeBudgetedPrompt([candidates[0]!, candidates[0]!], { depth: 0 })),
    ],
    [
      "negative chars is an error",
      () => outcome(() => composeBudgetedPrompt([{ id: "x", tier: "core", content: "x", chars: -1 }], { depth: 0 })),
    ],
    [
      "fingerprint of a composition",
      () => sha256Hex(composeBudgetedPrompt(candidates, { depth: 0, totalBudget: 300 }).composed),
    ],
  ]),
  ...cases("contributions", [
    [
      "resolve at depth 0, legal team, retrying",
      () =>
        json(
          resolvePromptCandidates(plugins, {
            scope: { team: "legal" },
            state: { retrying: true, attempt: 2 },
            depth: 0,
          }),
        ),
    ],
    [
      "resolve at depth 3 condenses and skips informational",
      () => json(resolvePromptCandidates(plugins, { scope: { team: "sales" }, depth: 3 })),
    ],
  ]),
  ...cases("sections", [
    [
      "guidance for three tools",
      () => {
        const resolved = ["search_web", "search_docs", "calc"].map((toolName) =>
          resolveGuidance({ registry, toolName, base: `Use ${toolName} sparingly.` }),
        );
        return `${json(resolved)}\n${buildToolGuidanceSection(resolved)}`;
      },
    ],
    [
      "exhausted tools",
      () =>
        buildExhaustedToolsSection([
          "search_web",
          { name: "calc", attempts: 3, lastError: "division\nby zero" },
          "search_web",
        ]),
    ],
    [
      "recent tool errors bounded",
      () =>
        buildRecentToolErrorsSection(
          Array.from({ length: 8 }, (_, i) => ({
            toolName: `tool_${i}`,
            message: `failure ${i}: ${"x".repeat(i * 60)}`,
            callId: `c${i}`,
          })),
          { limit: 3, maxMessageChars: 120 },
        ),
    ],
    ["user requested tools", () => buildUserRequestedToolsSection(["search_web", "calc", "search_web", ""])],
    [
      "prior truncation",
      () => buildPriorTruncationRecoverySection({ truncated: true, reason: "max_tokens", maxOutputTokens: 1024 }),
    ],
    [
      "provider error",
      () =>
        buildProviderErrorRecoverySection({
          provider: "anthropic",
          status: 529,
          code: "overloaded_error",
          message: "Overloaded",
        }),
    ],
    [
      "empty inputs give empty bodies",
      () =>
        json([
          buildExhaustedToolsSection([]),
          buildRecentToolErrorsSection([]),
          buildUserRequestedToolsSection([]),
          buildPriorTruncationRecoverySection(null),
          buildProviderErrorRecoverySection(undefined),
        ]),
    ],
  ]),
];
