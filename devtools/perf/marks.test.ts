import { afterEach, describe, expect, it } from "vitest";
import {
  inputRendered,
  markInputChange,
  markViewSwitch,
  PASTE_TO_RENDERED,
  VIEW_SWITCH,
  viewRendered,
} from "./marks.ts";

const measured = (name: string) =>
  new Promise<PerformanceEntry[]>((resolve) => {
    const check = () => {
      const e = performance.getEntriesByName(name, "measure");
      if (e.length > 0) resolve(e);
      else setTimeout(check, 5);
    };
    check();
  });

describe("performance marks", () => {
  afterEach(() => performance.clearMeasures());

  it("measures paste-to-rendered for the inspection that answers the change", async () => {
    markInputChange("7:0:x");
    inputRendered("6:0:x"); // an older result: not this paste
    expect(performance.getEntriesByName(PASTE_TO_RENDERED, "measure")).toHaveLength(0);
    inputRendered("7:0:x");
    expect((await measured(PASTE_TO_RENDERED))[0]!.duration).toBeGreaterThanOrEqual(0);
  });

  it("measures a view switch once", async () => {
    markViewSwitch("cache");
    viewRendered("raw");
    viewRendered("cache");
    viewRendered("cache");
    expect(await measured(VIEW_SWITCH)).toHaveLength(1);
  });
});
