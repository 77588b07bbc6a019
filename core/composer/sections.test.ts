import { describe, expect, it } from "vitest";
import { createGuidanceRegistry, resolveGuidance } from "./guidance.ts";
import { buildPriorTruncationRecoverySection, buildProviderErrorRecoverySection } from "./sections-recovery.ts";
import {
  DEFAULT_RECENT_TOOL_ERRORS_LIMIT,
  buildExhaustedToolsSection,
  buildRecentToolErrorsSection,
  buildToolGuidanceSection,
  buildUserRequestedToolsSection,
} from "./sections-tools.ts";
import { truncate } from "./sections-text.ts";

describe("section builders give an empty body for empty input", () => {
  it.each([
    ["buildExhaustedToolsSection", () => buildExhaustedToolsSection([])],
    ["buildToolGuidanceSection", () => buildToolGuidanceSection([])],
    [
      "buildToolGuidanceSection (only empty guidance)",
      () => buildToolGuidanceSection([{ toolName: "x", text: "", prefix: [], suffix: [], matched: [] }]),
    ],
    ["buildRecentToolErrorsSection", () => buildRecentToolErrorsSection([])],
    [
      "buildRecentToolErrorsSection (limit 0)",
      () => buildRecentToolErrorsSection([{ toolName: "a", message: "m" }], { limit: 0 }),
    ],
    ["buildUserRequestedToolsSection", () => buildUserRequestedToolsSection([])],
    ["buildPriorTruncationRecoverySection (undefined)", () => buildPriorTruncationRecoverySection(undefined)],
    [
      "buildPriorTruncationRecoverySection (not truncated)",
      () => buildPriorTruncationRecoverySection({ truncated: false, reason: "stop" }),
    ],
    ["buildProviderErrorRecoverySection (null)", () => buildProviderErrorRecoverySection(null)],
  ])("%s", (_name, build) => {
    expect(build()).toBe("");
  });
});

describe("buildExhaustedToolsSection", () => {
  it("lists each tool once with its attempts and last error", () => {
    expect(
      buildExhaustedToolsSection([
        "fetch_url",
        { name: "search_corpus", attempts: 3, lastError: "timeout\nafter 30s" },
        "fetch_url",
        { name: "x", attempts: 1 },
      ]),
    ).toBe(
      [
        "Tools you've already tried this turn:",
        "- fetch_url",
        "- search_corpus (3 attempts; last error: timeout after 30s)",
        "- x (1 attempt)",
        "Don't call them again with the same arguments: change the arguments, use another tool, or answer with what you have.",
      ].join("\n"),
    );
  });
});

describe("buildToolGuidanceSection", () => {
  it("renders resolved guidance per tool, indenting continuation lines", () => {
    const registry = createGuidanceRegistry([
      { match: { toolName: "search_*" }, mode: "prefix", text: "Always cite sources." },
      { match: { toolName: "search_*" }, mode: "suffix", text: "Quote briefly." },
    ]);
    const text = buildToolGuidanceSection([
      resolveGuidance({ registry, toolName: "search_corpus" }),
      resolveGuidance({ registry, toolName: "fetch_url" }),
    ]);
    expect(text).toBe("Tool guidance:\n- search_corpus: Always cite sources.\n  Quote briefly.");
  });
});

describe("buildRecentToolErrorsSection", () => {
  const errors = Array.from({ length: 7 }, (_, i) => ({ toolName: `tool_${i}`, message: `failure ${i}` }));

  it(`keeps the ${DEFAULT_RECENT_TOOL_ERRORS_LIMIT} most recent errors, oldest first, and says how many were left out`, () => {
    expect(DEFAULT_RECENT_TOOL_ERRORS_LIMIT).toBe(5);
    expect(buildRecentToolErrorsSection(errors)).toBe(
      [
        "Recent tool errors (oldest first):",
        "- tool_2: failure 2",
        "- tool_3: failure 3",
        "- tool_4: failure 4",
        "- tool_5: failure 5",
        "- tool_6: failure 6",
        "(2 earlier errors not shown)",
      ].join("\n"),
    );
  });

  it("honours a custom limit, call ids and long messages", () => {
    const text = buildRecentToolErrorsSection(
      [
        { toolName: "fetch_url", callId: "call_7", message: `404\n${"x".repeat(50)}` },
        { toolName: "a", message: "" },
      ],
      { limit: 1, maxMessageChars: 10 },
    );
    expect(text).toBe("Recent tool errors (oldest first):\n- a: failed\n(1 earlier error not shown)");
    expect(
      buildRecentToolErrorsSection([{ toolName: "fetch_url", callId: "call_7", message: `404\n${"x".repeat(50)}` }], {
        maxMessageChars: 10,
      }),
    ).toBe("Recent tool errors (oldest first):\n- fetch_url (call_7): 404 xxxxx…");
  });

  it("rejects a negative or fractional limit", () => {
    expect(() => buildRecentToolErrorsSection(errors, { limit: -1 })).toThrow(
      expect.objectContaining({ field: "options.limit" }),
    );
    expect(() => buildRecentToolErrorsSection(errors, { limit: 1.5 })).toThrow(
      expect.objectContaining({ field: "options.limit" }),
    );
  });
});

describe("buildUserRequestedToolsSection", () => {
  it("lists each requested tool once, in order", () => {
    expect(buildUserRequestedToolsSection(["search_corpus", "fetch_url", "search_corpus", "  "])).toBe(
      [
        "The user asked you to use these tools:",
        "- search_corpus",
        "- fetch_url",
        "Use them for this request where they apply; if one can't help, say why.",
      ].join("\n"),
    );
  });
});

describe("recovery sections", () => {
  it("asks to continue after a truncated response", () => {
    expect(buildPriorTruncationRecoverySection({ truncated: true, reason: "max_tokens", maxOutputTokens: 4096 })).toBe(
      "Your previous response was cut off before it finished (reason: max_tokens; limit: 4096 output tokens).\n" +
        "Continue from where it stopped without repeating what was already said, and keep this response shorter: split long output into parts.",
    );
    expect(buildPriorTruncationRecoverySection({ truncated: true }).split("\n")[0]).toBe(
      "Your previous response was cut off before it finished.",
    );
  });

  it("describes a provider failure", () => {
    expect(
      buildProviderErrorRecoverySection({
        provider: "openai",
        status: 429,
        code: "rate_limit_exceeded",
        message: "Slow down.\n",
      }),
    ).toBe(
      "The previous model call failed (provider openai, status 429, code rate_limit_exceeded): Slow down.\n" +
        "Its response never reached the user. Pick up from the last completed step and don't assume anything from the failed call happened.",
    );
    expect(buildProviderErrorRecoverySection({}).split("\n")[0]).toBe("The previous model call failed.");
  });
});

describe("truncate", () => {
  it("never splits a surrogate pair", () => {
    expect(truncate("ab🙂cd", 4)).toBe("ab…");
    expect(truncate("abc🙂d", 4)).toBe("abc…");
    expect(truncate("abc", 3)).toBe("abc");
    expect(truncate("abcd", 1)).toBe("…");
  });
});
