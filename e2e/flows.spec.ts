// User flows in the built devtools, driven like a user would: paste, drop, slide, share, export, keyboard.
import type { Page } from "@playwright/test";
import { longOpenAIRequest } from "./support/fixtures.ts";
import {
  afterChange,
  expect,
  host,
  ORIGIN,
  openApp,
  pickSample,
  readyHost,
  sampleText,
  setInput,
  showView,
  test,
  VIEWS,
} from "./support/app.ts";
import { expectedTierDrops, tierSections } from "./support/tiers.ts";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const TIERS = sampleText("assembly-tiers.json");

/** A real paste: the text on the system clipboard, then Ctrl+V into the focused editor. */
async function paste(page: Page, text: string, slot: "current" | "previous" = "current") {
  const editor = page.getByTestId(slot === "current" ? "request-editor" : "previous-request-editor");
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await editor.focus();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("ControlOrMeta+V");
}

/** Drops `text` as a file on an input panel: a drop event carrying a DataTransfer built in the page. */
async function dropFile(page: Page, slot: "current" | "previous", name: string, text: string) {
  const panel = page.getByTestId(`input-panel-${slot}`);
  const dataTransfer = await page.evaluateHandle(
    ([n, t]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], n, { type: "application/json" }));
      return dt;
    },
    [name, text] as const,
  );
  await panel.dispatchEvent("dragenter", { dataTransfer });
  await panel.dispatchEvent("dragover", { dataTransfer });
  await panel.dispatchEvent("drop", { dataTransfer });
}

/** `a + b = c > limit unit` from a dropped row, checked as arithmetic. */
function checkSum(text: string) {
  const m = /^([\d,]+) \+ ([\d,]+) = ([\d,]+) ([>≤]) ([\d,]+) (chars|tokens|bytes)$/.exec(text.trim());
  expect(m, `arithmetic "${text}"`).not.toBeNull();
  const n = (i: number) => Number(m![i]!.replace(/,/g, ""));
  const [before, size, total, limit] = [n(1), n(2), n(3), n(5)];
  expect(before + size).toBe(total);
  expect(m![4]).toBe(">"); // a dropped item is over its limit
  expect(total).toBeGreaterThan(limit);
  return { before, size, total, limit, unit: m![6] };
}

test("paste a request: the dropped view lists each dropped section with its arithmetic", async ({ page }) => {
  await openApp(page, { view: "dropped" });
  await expect(page.getByTestId("dropped-empty")).toBeVisible(); // the start-up sample drops nothing
  await afterChange(page, () => paste(page, TIERS));
  await expect(page.getByTestId("input-source")).toHaveText("pasted");
  await expect(page.getByTestId("request-editor")).toHaveValue(TIERS);

  await expect(page.getByTestId("dropped-summary")).toHaveText("6 items: 2 by the tier gate, 4 by the context budget.");
  const rows = page.getByTestId("dropped-row");
  await expect(rows).toHaveCount(6);

  // The tier-gate rows agree with the gate computed here from the sample itself.
  const expected = expectedTierDrops(tierSections(TIERS), 520, 0.95);
  const tierRows = page.locator('[data-testid="dropped-row"][data-stage="tiers"]');
  await expect(tierRows).toHaveCount(expected.length);
  for (const [i, drop] of expected.entries()) {
    const row = tierRows.nth(i);
    await expect(row).toHaveAttribute("data-id", drop.id);
    const sum = checkSum(await row.getByTestId("dropped-arithmetic").innerText());
    expect(sum).toEqual({
      before: drop.before,
      size: drop.chars,
      total: drop.before + drop.chars,
      limit: drop.limit,
      unit: "chars",
    });
  }
  // The context-budget rows: every one over the request's 400-token cap.
  const budgetRows = page.locator('[data-testid="dropped-row"][data-stage="context_budget"]');
  await expect(budgetRows).toHaveCount(4);
  for (const row of await budgetRows.all()) {
    const sum = checkSum(await row.getByTestId("dropped-arithmetic").innerText());
    expect(sum.limit).toBe(400);
    expect(sum.unit).toBe("tokens");
    await expect(row.getByTestId("dropped-reason")).toContainText("maxInputTokens 400");
  }
});

test.describe("two consecutive turns", () => {
  const cases = [
    {
      previous: "conversation-turn-2.json",
      current: "conversation-turn-3.json",
      cause: "system_changed",
      label: "system prompt changed",
      words: "The system prompt changed.",
    },
    {
      previous: "conversation-turn-3.json",
      current: "conversation-turn-4.json",
      cause: "tool_order_changed",
      label: "tool order changed",
      words: "The same tools were sent in a different order.",
    },
  ] as const;

  /** Where the two requests first differ, worked out here from the JSON (not from the app). */
  function firstDifference(previous: string, current: string): string {
    const p = JSON.parse(previous);
    const c = JSON.parse(current);
    const names = (r: { tools: { name: string }[] }) => r.tools.map((t) => t.name);
    const i = names(c).findIndex((n, k) => n !== names(p)[k]);
    if (i !== -1) return `tools[${i}]`;
    const text = (r: { system: { text: string }[] }) => r.system.map((s) => s.text);
    const k = text(c).findIndex((t, j) => t !== text(p)[j]);
    return `messages[0].content[${k}]`; // Anthropic's system blocks are segmented as the first message
  }

  /** Every string in a JSON value, joined: what the request says, without JSON escapes. */
  const strings = (value: unknown): string =>
    typeof value === "string"
      ? value
      : Array.isArray(value)
        ? value.map(strings).join("\u0000")
        : value && typeof value === "object"
          ? Object.values(value).map(strings).join("\u0000")
          : "";

  for (const t of cases) {
    test(`${t.current.replace(".json", "")} after ${t.previous.replace(".json", "")}: the cache view names the divergence and its cause`, async ({
      page,
    }) => {
      const previous = sampleText(t.previous);
      const current = sampleText(t.current);
      await openApp(page, { view: "cache" });
      await setInput(page, previous, { slot: "previous" });
      await setInput(page, current);
      const divergence = page.getByTestId("divergence");
      await expect(divergence).toHaveAttribute("data-cause", t.cause);
      await expect(divergence).toHaveAttribute("data-busts", "true");
      await expect(page.getByTestId("divergence-cause")).toHaveText(t.label);
      await expect(page.getByTestId("divergence-words")).toHaveText(t.words);
      await expect(page.getByTestId("divergence-path")).toHaveText(firstDifference(previous, current));
      await expect(page.getByTestId("divergence-marker")).toBeVisible();
      // The before/after excerpt: the same context, then text that really is in each turn.
      const before = await page.locator('[data-testid="divergence-before"] del').innerText();
      const after = await page.locator('[data-testid="divergence-after"] ins').innerText();
      const common = (side: string) => page.locator(`[data-testid="divergence-${side}"] .cp-common`).innerText();
      expect(await common("before")).toBe(await common("after"));
      // Each side is the request's own words (no JSON around them): its first phrase (up to a
      // tool's "name: description" colon or its schema) is text of its own turn.
      expect(`${before}${after}`).not.toMatch(/providerFields|\\"|"type":"text"/);
      const fragment = (s: string): string => s.split(/: | \{/)[0]!;
      expect(fragment(before).length).toBeGreaterThan(3);
      expect(fragment(before)).not.toBe(fragment(after));
      expect(strings(JSON.parse(previous))).toContain(fragment(before));
      expect(strings(JSON.parse(current))).toContain(fragment(after));
    });
  }
});

test("the budget slider re-runs the tier gate: the dropped list follows it", async ({ page }) => {
  await openApp(page, { view: "tiers" });
  await pickSample(page, "assembly-tiers");
  const sections = tierSections(TIERS);
  const summary = page.getByTestId("tier-summary");
  const slider = page.getByTestId("tier-budget-slider");
  const droppedIds = async () =>
    page.getByTestId("tier-dropped").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
  const expectDropsAt = async (budget: number) => {
    await expect(summary).toHaveAttribute("data-budget", String(budget));
    const want = expectedTierDrops(sections, budget, 0.95).map((d) => d.id);
    await expect(page.getByTestId("tier-dropped-list")).toHaveAttribute("data-count", String(want.length));
    expect(await droppedIds()).toEqual(want);
    for (const row of await page.getByTestId("tier-row").all()) {
      const id = await row.getAttribute("data-id");
      await expect(row).toHaveAttribute("data-verdict", want.includes(id!) ? "dropped" : "included");
    }
    return want;
  };

  const atRequest = await expectDropsAt(520);
  expect(atRequest).toEqual(["active.runbook", "informational.glossary"]);

  // Keyboard: End = the slider's top, where nothing drops; Home = 0, where everything but core drops.
  await slider.focus();
  await page.keyboard.press("End");
  const max = Number(await slider.getAttribute("max"));
  expect(await expectDropsAt(max)).toEqual([]);
  await page.keyboard.press("Home");
  expect(await expectDropsAt(0)).toEqual(sections.filter((s) => s.tier !== "core").map((s) => s.id));

  // Mouse: drag the thumb to about 30% of the track; whatever budget it lands on, the list matches it.
  const box = (await slider.boundingBox())!;
  await page.mouse.move(box.x + 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  const dragged = Number(await summary.getAttribute("data-budget"));
  expect(dragged).toBeGreaterThan(0);
  expect(dragged).toBeLessThan(max);
  const atDrag = await expectDropsAt(dragged);
  expect(atDrag).not.toEqual(atRequest);

  // Back to the request's own budget.
  await page.getByTestId("tier-budget-reset").click();
  await expectDropsAt(520);
});

test("a share link brings back the same view, input and settings", async ({ page }) => {
  await openApp(page, { view: "overview" });
  await pickSample(page, "conversation-turn-3"); // fills the previous turn too
  await afterChange(page, () =>
    page
      .getByTestId("provider-picker")
      .selectOption("anthropic")
      .then(() => undefined),
  );
  await afterChange(page, () => page.getByTestId("budget-tokens").fill("1500"));
  await showView(page, "cache");
  const current = await page.getByTestId("request-editor").inputValue();
  const previous = await page.getByTestId("previous-request-editor").inputValue();
  const stable = await page.getByTestId("cache-strip").getAttribute("data-stable-bytes");

  await page.getByTestId("share-link").click();
  await expect(page.getByTestId("share-status")).toContainText("copied to the clipboard");
  const url = await page.getByTestId("share-url").inputValue();
  expect(url.startsWith(`${ORIGIN}/#/view/cache?theme=light&s=`)).toBe(true);
  expect(url).toMatch(/&s=[\w-]+$/);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  expect(url).not.toContain("Rotterdam"); // compressed, not plain text

  // A fresh load of the link (nothing kept in memory).
  await page.goto("about:blank");
  await page.goto(url);
  await expect(readyHost(page, "cache")).toBeVisible();
  await expect(page.getByTestId("route-notice")).toHaveAttribute("data-kind", "info");
  await expect(page.getByTestId("request-editor")).toHaveValue(current);
  await expect(page.getByTestId("previous-request-editor")).toHaveValue(previous);
  await expect(page.getByTestId("provider-picker")).toHaveValue("anthropic");
  await expect(page.getByTestId("budget-tokens")).toHaveValue("1500");
  await expect(page.getByTestId("cache-strip")).toHaveAttribute("data-stable-bytes", stable!);
  await expect(page.getByTestId("divergence")).toHaveAttribute("data-cause", "system_changed");
  expect(new URL(page.url()).hash).toBe("#/view/cache?theme=light"); // the state left the address bar
});

test("a hash-only share carries fingerprints, no prompt text", async ({ page }) => {
  await openApp(page, { view: "overview" });
  await pickSample(page, "conversation-turn-2");
  await page.getByTestId("share-hash-only").click();
  const url = await page.getByTestId("share-url").inputValue();
  expect(url).toMatch(/#\/view\/cache\?theme=light&bundle=[\w-]+$/);
  await page.goto("about:blank");
  await page.goto(url);
  await expect(page.getByTestId("route-notice")).toContainText("segment fingerprints");
  const bundle = await page.getByTestId("previous-request-editor").inputValue();
  expect(bundle).not.toContain("Harbor"); // the system prompt's words
  expect(bundle).not.toContain("MSKU");
  await expect(page.getByTestId("request-editor")).toHaveValue(""); // left for the recipient's own turn
  await setInput(page, sampleText("conversation-turn-3.json"));
  await expect(page.getByTestId("divergence")).toHaveAttribute("data-cause", /changed/);
});

test("dropping files on the inputs loads them", async ({ page }) => {
  await openApp(page, { view: "cache" });
  await afterChange(page, () => dropFile(page, "previous", "turn-3.json", sampleText("conversation-turn-3.json")));
  await expect(page.getByTestId("previous-input-source")).toHaveText("file: turn-3.json");
  await afterChange(page, () => dropFile(page, "current", "turn-4.json", sampleText("conversation-turn-4.json")));
  await expect(page.getByTestId("input-source")).toHaveText("file: turn-4.json");
  await expect(page.getByTestId("request-editor")).toHaveValue(sampleText("conversation-turn-4.json"));
  await expect(page.getByTestId("divergence")).toHaveAttribute("data-cause", "tool_order_changed");
  await expect(page.getByTestId("input-panel-current")).not.toHaveClass(/dragging/);
});

test("switching the provider moves the minimum-length marker", async ({ page }) => {
  await openApp(page, { view: "cache" });
  await pickSample(page, "conversation-turn-3");
  const marker = page.getByTestId("min-marker");
  const read = async () => ({
    min: Number(await marker.getAttribute("data-min-tokens")),
    offset: Number(await marker.getAttribute("data-offset")),
    x: (await marker.boundingBox())!.x,
    rule: Number(await page.getByTestId("cache-rule").getAttribute("data-min-tokens")),
  });
  await afterChange(page, () =>
    page
      .getByTestId("provider-picker")
      .selectOption("anthropic")
      .then(() => undefined),
  );
  const anthropic = await read();
  expect(anthropic.min).toBe(1024);
  expect(anthropic.rule).toBe(anthropic.min);
  await expect(marker).toHaveAttribute("data-beyond", "false");

  await afterChange(page, () =>
    page
      .getByTestId("provider-picker")
      .selectOption("gemini")
      .then(() => undefined),
  );
  await expect(page.getByTestId("cache-provider")).toContainText(/gemini/i);
  const gemini = await read();
  expect(gemini.rule).toBe(gemini.min);
  expect(gemini.min).not.toBe(anthropic.min);
  expect(gemini.offset).not.toBe(anthropic.offset);
  expect(Math.abs(gemini.x - anthropic.x)).toBeGreaterThan(20); // visibly somewhere else

  await afterChange(page, () =>
    page
      .getByTestId("provider-picker")
      .selectOption("anthropic")
      .then(() => undefined),
  );
  expect(await read()).toEqual(anthropic);
});

test("export to Anthropic format carries cache_control breakpoints", async ({ page }) => {
  const request = longOpenAIRequest();
  expect(request).not.toContain("cache_control");
  await openApp(page, { view: "raw" });
  await setInput(page, request);
  await page.getByTestId("raw-tab-export").click();
  await page.getByTestId("export-format").selectOption("anthropic");
  await expect(page.getByTestId("export-breakpoints")).toBeChecked();
  const list = page.getByTestId("export-breakpoint-list");
  // Suggestions follow Anthropic's cache rules: with the provider inferred as OpenAI the panel says so.
  await expect(list).toHaveAttribute("data-count", "0");
  await expect(list).toContainText("choose Anthropic as the provider");
  await afterChange(page, () =>
    page
      .getByTestId("provider-picker")
      .selectOption("anthropic")
      .then(() => undefined),
  );
  const count = Number(await list.getAttribute("data-count"));
  expect(count).toBeGreaterThan(0);

  const download = async () => {
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-export").click()]);
    expect(file.suggestedFilename()).toBe("request.anthropic.json");
    const path = await file.path();
    const { readFile } = await import("node:fs/promises");
    return JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
  };
  /** JSON paths of every object carrying cache_control, in document order. */
  const marked = (value: unknown, path = ""): { path: string; control: unknown }[] => {
    if (Array.isArray(value)) return value.flatMap((v, i) => marked(v, `${path}[${i}]`));
    if (value && typeof value === "object") {
      const own =
        "cache_control" in value ? [{ path, control: (value as Record<string, unknown>)["cache_control"] }] : [];
      return [
        ...own,
        ...Object.entries(value).flatMap(([k, v]) =>
          k === "cache_control" ? [] : marked(v, path ? `${path}.${k}` : k),
        ),
      ];
    }
    return [];
  };

  const exported = await download();
  expect(exported["model"]).toBe("gpt-4.1");
  expect(Array.isArray(exported["messages"])).toBe(true);
  const breakpoints = marked(exported);
  expect(breakpoints).toHaveLength(count);
  for (const b of breakpoints) expect(b.control).toEqual({ type: "ephemeral" });
  await expect(list).toContainText(`cache_control at `);
  // Anthropic allows at most 4 breakpoints.
  expect(count).toBeLessThanOrEqual(4);

  await page.getByTestId("export-breakpoints").uncheck();
  expect(marked(await download())).toEqual([]);
});

test("keyboard only: skip link, arrow keys across all views, Alt+digits, card links", async ({ page }) => {
  await openApp(page, { view: "overview" });
  const focused = () =>
    page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.id ?? "");

  await page.keyboard.press("Tab");
  expect(await focused()).toBe("skip-to-views");
  await page.keyboard.press("Enter");
  expect(await focused()).toBe("strata-views");
  await page.keyboard.press("Tab");
  expect(await focused()).toBe("nav-overview");

  // → walks through every view in order and wraps; each one renders and owns the URL.
  for (const view of [...VIEWS.slice(1), VIEWS[0]]) {
    await page.keyboard.press("ArrowRight");
    await expect(readyHost(page, view)).toBeVisible();
    await expect(page.getByTestId(`view-${view}`)).toBeVisible();
    await expect(page.getByTestId(`nav-${view}`)).toHaveAttribute("aria-current", "page");
    expect(await focused()).toBe(`nav-${view}`);
    expect(new URL(page.url()).hash).toBe(`#/view/${view}?theme=light`);
  }
  await page.keyboard.press("ArrowLeft");
  await expect(host(page)).toHaveAttribute("data-view", "raw");
  await page.keyboard.press("Home");
  await expect(host(page)).toHaveAttribute("data-view", "overview");
  await page.keyboard.press("End");
  await expect(host(page)).toHaveAttribute("data-view", "raw");

  // Back/forward follow the views.
  await page.goBack();
  await expect(host(page)).toHaveAttribute("data-view", "overview");

  // Alt+1…9 from inside the editor.
  await page.getByTestId("request-editor").focus();
  for (const [i, view] of VIEWS.entries()) {
    await page.keyboard.press(`Alt+Digit${i + 1}`);
    await expect(readyHost(page, view)).toBeVisible();
  }
  expect(await focused()).toBe("request-editor");
  await expect(page.getByTestId("request-editor")).toHaveValue(/"model"/); // no digits typed into the JSON

  // Tab from the nav into the overview's cards; Enter on the Dropped card opens that view.
  await page.keyboard.press("Alt+Digit1");
  await page.getByTestId("nav-overview").focus();
  for (let i = 0; i < 20 && (await focused()) !== "card-dropped"; i++) await page.keyboard.press("Tab");
  expect(await focused()).toBe("card-dropped");
  await page.keyboard.press("Enter");
  await expect(readyHost(page, "dropped")).toBeVisible();
});

test("a long chat: its first report comes without the request, which follows for every view that draws it", async ({
  page,
}) => {
  test.setTimeout(60_000);
  // More messages than the first report's lists keep (HEAD_LIST_CAP): the worker answers in parts.
  const messages = Array.from({ length: 1500 }, (_, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    content: `Message ${i}: where is order ${1000 + i}? It shipped with DHL and arrives on Friday.`,
  }));
  const text = JSON.stringify({ model: "gpt-4.1", messages });
  await openApp(page, { view: "layout" });
  await afterChange(page, () => paste(page, text));
  // Ready means drawn: the layout lists the pasted messages, not an empty request.
  await expect(readyHost(page, "layout")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("view-layout")).toContainText("Message 0: where is order 1000?");
  await expect(page.getByTestId("view-request-coming")).toHaveCount(0);
  await showView(page, "overview");
  await expect(page.getByTestId("card-messages-value")).toHaveText("1,500");
  // The whole report replaces the first one (its lists were cut) and keeps the same request.
  await expect(page.getByTestId("report-partial")).toHaveCount(0, { timeout: 30_000 });
  for (const view of ["history", "raw"] as const) {
    await showView(page, view);
    await expect(page.getByTestId(`view-${view}`)).toContainText("Message 0: where is order 1000?");
  }
});
