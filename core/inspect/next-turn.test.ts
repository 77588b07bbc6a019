import { describe, expect, it } from "vitest";
import { parseRequest } from "../request/parse-request.ts";
import { assemblySample } from "../test-support/samples-assembly.ts";
import { simulateNextTurn } from "./next-turn.ts";

describe("simulateNextTurn", () => {
  it("shows the next turn appending under cache_aware and moving the attachments under legacy", async () => {
    const parsed = parseRequest(assemblySample);
    if (parsed.format !== "strata") throw new Error("expected a Strata request");
    const { contextBudget: _budget, ...request } = parsed.request;
    const sim = await simulateNextTurn(request, {
      reply: "The canary failed the rounding test; fix it before retrying.",
      nextInput: "Open a ticket for the rounding bug.",
    });
    expect(sim.provider).toBe("anthropic");
    expect(sim.cache_aware.comparison.divergence).toMatchObject({ cause: "appended", bustsCache: false });
    expect(sim.cache_aware.comparison.commonPrefix).toEqual(sim.cache_aware.turn);
    expect(sim.legacy.comparison.divergence).toMatchObject({ cause: "message_edited", bustsCache: true });
    expect(sim.legacy.comparison.divergence!.detail).toContain("Messages were inserted before previous messages[");
    expect(sim.legacy.stablePrefixRatio).toBeLessThan(sim.cache_aware.stablePrefixRatio);
  });
});
