import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../util/errors.ts";
import { prepareAssembly } from "./assembly-options.ts";
import type { AssemblyRequest } from "./assembly-request.ts";

const withNow = (now: string): AssemblyRequest => ({
  model: { provider: "openai", model: "gpt-test" },
  input: "hi",
  template: { template: "{{ system.current_datetime }}", now },
});

describe("template.now", () => {
  it.each([
    ["2026-11-29T08:30:00Z", "2026-11-29T08:30:00Z"],
    ["2026-11-29T08:30:00.250Z", "2026-11-29T08:30:00Z"],
    ["2026-11-29T09:30:00+01:00", "2026-11-29T08:30:00Z"],
  ])("reads the zoned instant %j as %j in every runtime and time zone", (now, expected) => {
    expect(prepareAssembly(withNow(now)).template?.rendered).toBe(expected);
  });

  it.each([
    ["2026-11-29T08:30:00", "a date-time without a zone (read in the host's time zone)"],
    ["2026-11-29", "a date without a time"],
    ["Sun Nov 29 2026 08:30:00 GMT", "an engine-specific format"],
    ["2026-13-40T08:30:00Z", "an impossible date"],
  ])("rejects %j (%s) with an error naming template.now", (now) => {
    const call = () => prepareAssembly(withNow(now));
    expect(call).toThrow(InvalidInputError);
    expect(call).toThrow(/^template\.now: .*with a zone/);
  });
});
