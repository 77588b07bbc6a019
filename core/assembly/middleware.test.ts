import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../util/errors.ts";
import { userMessage } from "../messages/index.ts";
import type { ProviderRequest } from "../messages/index.ts";
import { createMiddlewareRegistry } from "./middleware.ts";
import { applyDefaultProviderRequestOptions } from "./request-defaults.ts";

describe("createMiddlewareRegistry", () => {
  it("runs a hook's functions in registration order, each on the previous result", async () => {
    const registry = createMiddlewareRegistry()
      .use("input_assembly", (messages) => [...messages, userMessage("a")])
      .use("input_assembly", (messages) => [...messages, userMessage("b")]);
    const out = await registry.run("input_assembly", [userMessage("0")]);
    expect(out.map((m) => (m.content[0]!.type === "text" ? m.content[0]!.text : ""))).toEqual(["0", "a", "b"]);
    expect(registry.count("input_assembly")).toBe(2);
    expect(registry.count("context")).toBe(0);
  });

  it("returns the payload unchanged when a hook has no functions", async () => {
    const payload = [userMessage("x")];
    expect(await createMiddlewareRegistry().run("input_assembly", payload)).toBe(payload);
  });

  it("passes the run context to each function", async () => {
    const seen: unknown[] = [];
    const registry = createMiddlewareRegistry().use("context", (blocks, context) => {
      seen.push(context.sessionId);
      return blocks;
    });
    await registry.run("context", [], { sessionId: "s1" });
    expect(seen).toEqual(["s1"]);
  });

  it("rejects unknown hooks and non-functions naming the field", () => {
    const registry = createMiddlewareRegistry();
    expect(() => registry.use("output" as never, (() => []) as never)).toThrow(InvalidInputError);
    expect(() => registry.use("context", "fn" as never)).toThrow(/^middleware\.context: /);
  });

  it("fails when a function forgets to return its payload", async () => {
    const registry = createMiddlewareRegistry().use("prompt_build", (() => undefined) as never);
    await expect(registry.run("prompt_build", { messages: [] })).rejects.toThrow(/middleware\.prompt_build\[0\]/);
  });

  it("rejects with the signal's reason when aborted", async () => {
    const controller = new AbortController();
    controller.abort("stop");
    const registry = createMiddlewareRegistry().use("context", (b) => b);
    await expect(registry.run("context", [], { signal: controller.signal })).rejects.toBe("stop");
  });
});

describe("applyDefaultProviderRequestOptions", () => {
  const base: ProviderRequest = { model: { provider: "p", model: "m" }, messages: [], tools: [] };

  it.each<[string, Partial<ProviderRequest>, { sessionId?: string; cacheKey?: string }, Partial<ProviderRequest>]>([
    ["stamps sessionId and uses it as cacheKey", {}, { sessionId: "s" }, { sessionId: "s", cacheKey: "s" }],
    ["stamps an explicit cacheKey", {}, { sessionId: "s", cacheKey: "k" }, { sessionId: "s", cacheKey: "k" }],
    [
      "never overwrites existing values",
      { sessionId: "own", cacheKey: "mine" },
      { sessionId: "s" },
      { sessionId: "own", cacheKey: "mine" },
    ],
    [
      "fills only the missing cacheKey",
      { sessionId: "own" },
      { sessionId: "s" },
      { sessionId: "own", cacheKey: "own" },
    ],
    ["does nothing without defaults", {}, {}, {}],
  ])("%s", (_, existing, defaults, expected) => {
    const out = applyDefaultProviderRequestOptions({ ...base, ...existing }, defaults);
    expect({ sessionId: out.sessionId, cacheKey: out.cacheKey }).toEqual({
      sessionId: expected.sessionId,
      cacheKey: expected.cacheKey,
    });
    expect(Object.keys(out).filter((k) => (out as unknown as Record<string, unknown>)[k] === undefined)).toEqual([]);
  });
});
