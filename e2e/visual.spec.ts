// Visual diffing: one whole-page baseline per view and theme on fixed inputs, plus the error and
// empty states. Baselines live in e2e/__screenshots__/visual.spec.ts/; update them on purpose with
// `npm run test:e2e -- --update-snapshots` and review the PNG diff before committing.
import { HISTORY_ISSUES } from "./support/fixtures.ts";
import {
  afterChange,
  expect,
  expectPageScreenshot,
  openApp,
  pickSample,
  readyHost,
  sampleText,
  setInput,
  test,
  type Theme,
  type View,
} from "./support/app.ts";

/** Which fixed input each view is shown with: the one that exercises the most of it. */
const INPUT: Record<View, { readonly sample: string } | { readonly text: string }> = {
  overview: { sample: "assembly-tiers" },
  layout: { sample: "assembly-tiers" }, // legacy vs cache_aware with moves
  tiers: { sample: "assembly-tiers" }, // two sections over the budget
  dropped: { sample: "assembly-tiers" }, // tier gate and context budget drops
  cache: { sample: "conversation-turn-3" }, // against turn 2: the system prompt's timestamp busts the cache
  budget: { sample: "assembly-tiers" }, // a 400-token cap with omissions
  templates: { sample: "assembly-tiers" }, // a Jinja template with a volatile value
  history: { text: HISTORY_ISSUES }, // an unanswered tool call and an orphaned tool result
  raw: { sample: "assembly-tiers" },
};

/**
 * The same nine views for a pasted wire request: conversation turn 3 (Anthropic) against turn 2,
 * with a token cap where the view is about eviction.
 */
const WIRE_INPUT: Record<View, { readonly cap: number | null }> = {
  overview: { cap: null },
  layout: { cap: null },
  tiers: { cap: null }, // the system prompt in nine sections, all active
  dropped: { cap: 2440 }, // history evicted oldest first (the tools and system prompt alone are ~2,400 counted tokens)
  cache: { cap: null },
  budget: { cap: 2440 },
  templates: { cap: null }, // the session timestamp changed, the example date did not
  history: { cap: null },
  raw: { cap: null },
};

const THEMES: readonly Theme[] = ["light", "dark"];

for (const theme of THEMES) {
  test.describe(`${theme} theme`, () => {
    for (const [view, input] of Object.entries(INPUT) as [View, (typeof INPUT)[View]][]) {
      test(`${view} view`, async ({ page }) => {
        await openApp(page, { view, theme });
        if ("sample" in input) await pickSample(page, input.sample);
        else await setInput(page, input.text);
        await expect(readyHost(page, view)).toBeVisible();
        await expectPageScreenshot(page, `${view}-${theme}.png`);
      });
    }

    for (const [view, input] of Object.entries(WIRE_INPUT) as [View, (typeof WIRE_INPUT)[View]][]) {
      test(`${view} view of a wire request`, async ({ page }) => {
        await openApp(page, { view, theme });
        await pickSample(page, "conversation-turn-3");
        if (input.cap !== null)
          await afterChange(page, () => page.getByTestId("budget-tokens").fill(String(input.cap)));
        await expect(readyHost(page, view)).toBeVisible();
        await expectPageScreenshot(page, `wire-${view}-${theme}.png`);
      });
    }

    test("malformed JSON", async ({ page }) => {
      await openApp(page, { theme });
      await setInput(page, sampleText("bad/truncated.json"), { state: "error" });
      await expect(page.getByTestId("json-error")).toBeVisible();
      await expect(page.getByTestId("inspect-error")).toHaveAttribute("data-code", "json_syntax");
      await expectPageScreenshot(page, `error-json-${theme}.png`);
    });

    test("wrong shape", async ({ page }) => {
      await openApp(page, { theme });
      await setInput(page, sampleText("bad/wrong-types.json"), { state: "error" });
      await expect(page.getByTestId("shape-error").first()).toBeVisible();
      await expectPageScreenshot(page, `error-shape-${theme}.png`);
    });

    test("empty input", async ({ page }) => {
      await openApp(page, { theme });
      await page.getByTestId("clear-input").click();
      await expect(page.getByTestId("empty-state")).toBeVisible();
      await expectPageScreenshot(page, `empty-${theme}.png`);
    });
  });
}
