// The readers walk objects' keys with for…in and an own check instead of Object.keys (no array per
// object). These pin what that must keep: own keys only, in Object.keys's order, even when
// Object.prototype carries an enumerable key.
import { describe, expect, it } from "vitest";
import { extraFields } from "../formats/convert-util.ts";
import { withoutFastPaths } from "../formats/fast-paths.ts";
import { checkJsonValue } from "../formats/guard.ts";
import { parseRequest } from "./parse-request.ts";

/** Runs `fn` with an enumerable `polluted` key on Object.prototype (as a careless script may add one). */
function withPollutedPrototype<T>(fn: () => T): T {
  // oxlint-disable-next-line no-extend-native -- the point: a key every plain object inherits
  Object.defineProperty(Object.prototype, "polluted", { value: "inherited", enumerable: true, configurable: true });
  try {
    return fn();
  } finally {
    delete (Object.prototype as { polluted?: unknown }).polluted;
  }
}

const BODY = JSON.stringify({
  model: "gpt-4o",
  seed: 7,
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content: [{ type: "text", text: "hi" }], 2: "two", 1: "one" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
    },
    { role: "tool", tool_call_id: "c1", content: "ok" },
  ],
});

describe("own keys only", () => {
  it("extraFields lists own keys in Object.keys order and never an inherited one", () => {
    const proto = { inheritedExtra: 1 };
    const obj = Object.assign(Object.create(proto) as object, { z: 1, role: "user", 10: "ten", a: 2, 2: "two" });
    const fields = extraFields(obj, ["role"]);
    expect(fields).toEqual({ 2: "two", 10: "ten", z: 1, a: 2 });
    expect(Object.keys(fields!)).toEqual(["2", "10", "z", "a"]);
    expect(extraFields(Object.create(proto) as object, [])).toBeUndefined();
  });

  it("a polluted Object.prototype changes neither a parsed request nor the clean-JSON check", () => {
    const clean = parseRequest(BODY);
    const value = JSON.parse(BODY) as unknown;
    const polluted = withPollutedPrototype(() => ({
      parsed: parseRequest(BODY),
      issues: checkJsonValue(value),
      plainIssues: withoutFastPaths(() => checkJsonValue(value)),
    }));
    expect(JSON.stringify(polluted.parsed)).toBe(JSON.stringify(clean));
    expect(JSON.stringify(polluted.parsed)).not.toContain("inherited");
    expect(polluted.issues).toEqual([]);
    expect(polluted.plainIssues).toEqual([]);
  });

  it("the clean-JSON walk still finds a bad value behind every kind of key", () => {
    for (const bad of [{ 3: Number.NaN }, { a: { b: [1, () => 0] } }, { ["x\uD800"]: 1 }]) {
      const fast = checkJsonValue({ model: "m", nested: bad });
      expect(fast.length).toBeGreaterThan(0);
      expect(fast).toEqual(withoutFastPaths(() => checkJsonValue({ model: "m", nested: bad })));
    }
  });
});
