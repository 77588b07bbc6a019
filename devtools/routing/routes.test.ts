import { describe, expect, it } from "vitest";
import { formatHash, parseHash, VIEW_IDS } from "./routes.ts";

describe("hash routes", () => {
  it.each(VIEW_IDS)("round-trips #/view/%s", (view) => {
    expect(parseHash(formatHash({ view }))).toEqual({ view });
  });

  it("reads the theme and the share parameters", () => {
    expect(parseHash("#/view/cache?theme=dark&s=abc_-")).toEqual({ view: "cache", theme: "dark", share: "abc_-" });
    expect(parseHash("#/view/raw?bundle=xyz")).toEqual({ view: "raw", bundle: "xyz" });
    expect(parseHash("#/view/session?theme=dark&session=Ab_9")).toEqual({
      view: "session",
      theme: "dark",
      session: "Ab_9",
    });
    expect(formatHash({ view: "session", session: "Ab_9" })).toBe("#/view/session?session=Ab_9");
    expect(formatHash({ view: "tiers", theme: "light", share: "q" })).toBe("#/view/tiers?theme=light&s=q");
  });

  it("falls back to the overview and names an unknown view", () => {
    expect(parseHash("")).toEqual({ view: "overview" });
    expect(parseHash("#/view/nope")).toEqual({ view: "overview", unknownView: "nope" });
    expect(parseHash("#/view/cache?theme=purple")).toEqual({ view: "cache" });
  });
});
