import { describe, expect, it, vi } from "vitest";
import { composeBudgetedPrompt } from "./composer.ts";
import { InvalidInputError } from "../util/errors.ts";
import { ALL_CORE_FRAGMENT_TEMPLATE_IDS, isCoreFragmentTemplateId } from "./fragments.ts";
import type { CoreFragmentTemplateId } from "./fragments.ts";
import { appendPrompt, createPlugin, gatedPrompt, prependPersona, replaceCore, scopedPrompt } from "./contributions.ts";
import { resolvePromptCandidates } from "./resolve.ts";
import { buildRecentToolErrorsSection } from "./sections-tools.ts";
import type { RecentToolErrorEntry } from "./sections-tools.ts";
import type { HarnessPlugin, PromptContribution } from "./contribution-types.ts";

const ids = (plugins: readonly HarnessPlugin[], context = {}) =>
  resolvePromptCandidates(plugins, context).map((s) => s.id);

describe("contribution helpers", () => {
  it("build plain data with the documented defaults", () => {
    expect(appendPrompt("Be brief.")).toEqual({ mode: "append", slot: "body", tier: "active", content: "Be brief." });
    expect(prependPersona("You are Ada.")).toEqual({
      mode: "prepend",
      slot: "persona",
      tier: "core",
      content: "You are Ada.",
    });
    expect(replaceCore({ id: "core.job-history-template", content: "Jobs:" })).toEqual({
      mode: "replace",
      slot: "core",
      fragmentId: "core.job-history-template",
      tier: "core",
      content: "Jobs:",
    });
    expect(scopedPrompt({ scope: { channel: "slack" }, content: "Use short messages." })).toEqual({
      mode: "append",
      slot: "body",
      tier: "active",
      content: "Use short messages.",
      scope: { channel: "slack" },
    });
    expect(appendPrompt({ id: "docs", content: "Docs", tier: "informational", slot: "core" })).toEqual({
      mode: "append",
      slot: "core",
      tier: "informational",
      content: "Docs",
      id: "docs",
    });
  });

  it("rejects a replaceCore id that is not a core fragment", () => {
    expect(() => replaceCore({ id: "core.typo" as CoreFragmentTemplateId, content: "x" })).toThrow(
      /core\.typo.*core\.job-history-template/,
    );
  });

  it("createPlugin needs a name", () => {
    expect(() => createPlugin({ name: "" })).toThrow(InvalidInputError);
  });
});

describe("ALL_CORE_FRAGMENT_TEMPLATE_IDS", () => {
  it("lists the fragment ids the spec names", () => {
    for (const id of [
      "core.response-stylesheet-defaults",
      "core.role-tool-allowlist-template",
      "core.async-job-lifecycle-template",
      "core.job-history-template",
      "core.rules-condensed-template",
      "core.role-condensed-template",
      "core.export-rules-template",
    ]) {
      expect(ALL_CORE_FRAGMENT_TEMPLATE_IDS).toContain(id);
      expect(isCoreFragmentTemplateId(id)).toBe(true);
    }
    expect(isCoreFragmentTemplateId("core.nope")).toBe(false);
  });

  it("are never composed unless a host opts in", () => {
    const plugin = createPlugin({ name: "host", prompts: [appendPrompt("Hello.")] });
    expect(ids([plugin]).some((id) => isCoreFragmentTemplateId(id))).toBe(false);
  });
});

describe("resolvePromptCandidates", () => {
  it("orders persona, core, body; prepends before appends; fragments in canonical order", () => {
    const a = createPlugin({
      name: "a",
      prompts: [
        appendPrompt({ id: "rules", content: "Rules.", tier: "core", slot: "core" }),
        replaceCore({ id: "core.export-rules-template", content: "Export rules." }),
        appendPrompt({ id: "tail", content: "Tail." }),
        prependPersona({ id: "voice", content: "Voice A." }),
      ],
    });
    const b = createPlugin({
      name: "b",
      prompts: [
        replaceCore({ id: "core.response-stylesheet-defaults", content: "Style." }),
        prependPersona({ id: "voice", content: "Voice B." }),
        appendPrompt({ id: "persona-extra", content: "Extra.", slot: "persona" }),
      ],
    });
    expect(ids([a, b])).toEqual([
      "a:voice",
      "b:voice",
      "b:persona-extra",
      "core.response-stylesheet-defaults",
      "core.export-rules-template",
      "a:rules",
      "a:tail",
    ]);
  });

  it("fills in chars and tiers for the composer", () => {
    const plugin = createPlugin({
      name: "p",
      prompts: [prependPersona("You are Ada."), appendPrompt({ content: "Docs.", tier: "informational" })],
    });
    expect(resolvePromptCandidates([plugin])).toEqual([
      { id: "p:prepend-0", content: "You are Ada.", tier: "core", chars: 12 },
      { id: "p:append-1", content: "Docs.", tier: "informational", chars: 5 },
    ]);
  });

  it("includes scoped prompts only when every scope key matches", () => {
    const plugin = createPlugin({
      name: "p",
      prompts: [
        scopedPrompt({ id: "slack", scope: { channel: "slack" }, content: "Slack." }),
        scopedPrompt({ id: "tenants", scope: { tenant: ["acme", "globex"], channel: "web" }, content: "Tenants." }),
      ],
    });
    expect(ids([plugin], { scope: { channel: "slack" } })).toEqual(["p:slack"]);
    expect(ids([plugin], { scope: { channel: "web", tenant: "globex" } })).toEqual(["p:tenants"]);
    expect(ids([plugin], { scope: { channel: "web", tenant: "initech" } })).toEqual([]);
    expect(ids([plugin])).toEqual([]);
  });

  it("includes gated prompts when their predicate holds for this turn, with content computed from state", () => {
    const errors = (state: Readonly<Record<string, unknown>> | undefined) =>
      (state?.["toolErrors"] ?? []) as RecentToolErrorEntry[];
    const plugin = createPlugin({
      name: "recovery",
      prompts: [
        gatedPrompt({
          id: "tool-errors",
          when: (ctx) => errors(ctx.state).length > 0,
          content: (ctx) => buildRecentToolErrorsSection(errors(ctx.state)),
        }),
      ],
    });
    expect(ids([plugin], { state: {} })).toEqual([]);
    const [section] = resolvePromptCandidates([plugin], {
      state: { toolErrors: [{ toolName: "fetch_url", message: "404" }] },
    });
    expect(section).toEqual({
      id: "recovery:tool-errors",
      tier: "active",
      content: "Recent tool errors (oldest first):\n- fetch_url: 404",
      chars: 51,
    });
  });

  it("leaves out contributions whose content is empty", () => {
    const plugin = createPlugin({ name: "p", prompts: [appendPrompt(""), appendPrompt(() => "")] });
    expect(ids([plugin])).toEqual([]);
  });

  it("passes the context to runtime-aware contributions, after the static ones", () => {
    const runtimePrompts = vi.fn((ctx: { scope?: Readonly<Record<string, string>> }) => [
      appendPrompt({ id: "role", content: `Role: ${ctx.scope?.["role"]}` }),
    ]);
    const plugin = createPlugin({
      name: "p",
      prompts: [appendPrompt({ id: "static", content: "Static." })],
      runtimePrompts,
    });
    const context = { scope: { role: "planner" } };
    expect(resolvePromptCandidates([plugin], context).map((s) => s.content)).toEqual(["Static.", "Role: planner"]);
    expect(runtimePrompts).toHaveBeenCalledWith(context);
  });

  it("uses condensed content from depth 2 and skips informational contributions from depth 3", () => {
    const plugin = createPlugin({
      name: "p",
      prompts: [
        appendPrompt({ id: "rules", content: "The full rules.", condensed: "Rules, short.", tier: "core" }),
        appendPrompt({ id: "docs", content: "Docs.", tier: "informational" }),
      ],
    });
    const contents = (depth: number) => resolvePromptCandidates([plugin], { depth }).map((s) => s.content);
    expect(contents(1)).toEqual(["The full rules.", "Docs."]);
    expect(contents(2)).toEqual(["Rules, short.", "Docs."]);
    expect(contents(3)).toEqual(["Rules, short."]);
  });

  it("feeds composeBudgetedPrompt", () => {
    const plugin = createPlugin({
      name: "p",
      prompts: [prependPersona("You are Ada."), appendPrompt({ content: "x".repeat(100), tier: "informational" })],
    });
    const result = composeBudgetedPrompt(resolvePromptCandidates([plugin]), { depth: 0, totalBudget: 50 });
    expect(result.composed).toBe("You are Ada.");
    expect(result.dropped).toEqual(["p:append-1"]);
  });

  it.each([
    [
      "duplicate plugin names",
      [createPlugin({ name: "p" }), createPlugin({ name: "p" })],
      /plugins\[1\]\.name: "p" is also the name of plugins\[0\]/,
    ],
    [
      "two replacements of one fragment",
      [
        createPlugin({ name: "a", prompts: [replaceCore({ id: "core.job-history-template", content: "A" })] }),
        createPlugin({ name: "b", prompts: [replaceCore({ id: "core.job-history-template", content: "B" })] }),
      ],
      /core fragment "core\.job-history-template" is already replaced by plugins\[0\] \("a"\)/,
    ],
    [
      "duplicate contribution ids",
      [
        createPlugin({
          name: "a",
          prompts: [appendPrompt({ id: "x", content: "1" }), appendPrompt({ id: "x", content: "2" })],
        }),
      ],
      /section id "a:x" is already used/,
    ],
    [
      "a gate that does not return a boolean",
      [createPlugin({ name: "a", prompts: [gatedPrompt({ when: () => 1 as unknown as boolean, content: "x" })] })],
      /contributePrompts\(\)\[0\]\.when: must return true or false/,
    ],
    [
      "a content function that returns a non-string",
      [createPlugin({ name: "a", prompts: [appendPrompt(() => 5 as unknown as string)] })],
      /content function must return a string/,
    ],
    [
      "an unknown tier",
      [
        createPlugin({
          name: "a",
          prompts: [{ mode: "append", slot: "body", tier: "nice", content: "x" } as unknown as PromptContribution],
        }),
      ],
      /\.tier: must be "core", "active" or "informational"/,
    ],
    [
      "a replace contribution for an unknown fragment",
      [
        createPlugin({
          name: "a",
          prompts: [
            {
              mode: "replace",
              slot: "core",
              tier: "core",
              fragmentId: "core.x",
              content: "x",
            } as unknown as PromptContribution,
          ],
        }),
      ],
      /fragmentId: "core\.x" is not a core fragment id/,
    ],
  ])("rejects %s with a path to the contribution", (_name, plugins, message) => {
    expect(() => resolvePromptCandidates(plugins)).toThrow(message);
    expect(() => resolvePromptCandidates(plugins)).toThrow(InvalidInputError);
  });

  it("wraps errors thrown by plugin code with the contribution's path", () => {
    const plugin = createPlugin({
      name: "a",
      prompts: [
        gatedPrompt({
          when: () => {
            throw new Error("boom");
          },
          content: "x",
        }),
      ],
    });
    expect(() => resolvePromptCandidates([plugin])).toThrow(
      expect.objectContaining({
        code: "contribution_failed",
        message: expect.stringContaining('plugins[0] ("a").contributePrompts()[0].when: gate threw: boom'),
      }),
    );
  });

  it("is deterministic", () => {
    const make = () => [
      createPlugin({
        name: "a",
        prompts: [
          prependPersona("P"),
          appendPrompt("B"),
          replaceCore({ id: "core.job-history-template", content: "J" }),
        ],
      }),
    ];
    expect(resolvePromptCandidates(make(), { depth: 2 })).toEqual(resolvePromptCandidates(make(), { depth: 2 }));
  });
});
