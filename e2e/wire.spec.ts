// Pasted provider requests: every view answers for every wire format, caps in the header evict
// their parts, the trimmed request goes back into the editor, tiers travel in share links.
import {
  afterChange,
  expect,
  openApp,
  pickSample,
  readyHost,
  sampleText,
  setInput,
  showView,
  test,
  type View,
} from "./support/app.ts";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

/**
 * Every wire sample and multi-turn sample, with its format and a token cap (in the counted tokens
 * the provider bills) that evicts some of its history but stays above what is protected.
 */
const WIRE_SAMPLES = [
  { id: "openai-chat", format: "openai-chat", cap: 300 },
  { id: "openai-responses", format: "openai-responses", cap: 150 },
  { id: "anthropic", format: "anthropic", cap: 700 },
  { id: "gemini", format: "gemini", cap: 200 },
  { id: "conversation-turn-1", format: "anthropic", cap: null }, // no history to evict
  { id: "conversation-turn-2", format: "anthropic", cap: 2440 },
  { id: "conversation-turn-3", format: "anthropic", cap: 2440 },
  { id: "conversation-turn-4", format: "anthropic", cap: 2440 },
] as const;

/** What each view must show for a wire request: a test id with content, format-appropriate. */
async function expectViewContent(page: import("@playwright/test").Page, view: View, format: string) {
  const visible = (id: string) => expect(page.getByTestId(id).first()).toBeVisible();
  switch (view) {
    case "overview":
      await expect(page.getByTestId("card-format-value")).not.toHaveText("");
      await expect(page.getByTestId("card-budget")).toContainText("window");
      return;
    case "layout":
      await visible("layout-column-as_sent");
      await expect(page.getByTestId("layout-summary")).toContainText("follows");
      expect(await page.getByTestId("layout-part").count()).toBeGreaterThan(1);
      return;
    case "tiers":
      await expect(page.getByTestId("tier-origin")).toContainText("section");
      expect(await page.getByTestId("tier-assign").count()).toBeGreaterThan(0);
      await visible("tier-composed");
      return;
    case "dropped":
      await expect(page.getByTestId("dropped-empty")).toHaveAttribute("data-reason", "no-cap");
      return;
    case "cache":
      await visible("cache-strip");
      expect(await page.getByTestId("cache-segment").count()).toBeGreaterThan(3);
      return;
    case "budget":
      await expect(page.getByTestId("context-window-summary")).toContainText("-token window");
      expect(await page.getByTestId("budget-group").count()).toBeGreaterThan(2);
      return;
    case "templates":
      await visible("literal-volatility");
      await expect(page.getByTestId("template-summary")).toContainText("wire request");
      return;
    case "history":
      await expect(page.getByTestId("history-rules")).toHaveAttribute("data-rules", format);
      expect(await page.getByTestId("history-message").count()).toBeGreaterThan(1);
      return;
    case "raw":
      await visible("raw-request");
      return;
  }
}

const VIEW_ORDER: readonly View[] = [
  "overview",
  "layout",
  "tiers",
  "dropped",
  "cache",
  "budget",
  "templates",
  "history",
  "raw",
];

for (const sample of WIRE_SAMPLES) {
  test(`${sample.id}: every view shows content for its ${sample.format} request`, async ({ page }) => {
    await openApp(page);
    await pickSample(page, sample.id);
    for (const view of VIEW_ORDER) {
      await showView(page, view);
      await expectViewContent(page, view, sample.format);
    }
    // The header says why the layout toggle does not apply.
    await expect(page.getByTestId("layout-why")).toHaveAttribute("title", /arrives already laid out/);
  });

  test(`${sample.id}: a cap in the header changes Budget and Dropped`, async ({ page }) => {
    await openApp(page, { view: "dropped" });
    await pickSample(page, sample.id);
    await expect(page.getByTestId("dropped-empty")).toHaveAttribute("data-reason", "no-cap");
    if (sample.cap === null) {
      await afterChange(page, () => page.getByTestId("budget-tokens").fill("1000"));
      await expect(page.getByTestId("dropped-empty")).toHaveAttribute("data-reason", "overflow");
      await expect(page.getByTestId("report-problem").first()).toHaveAttribute("data-code", "context_budget_exceeded");
      return;
    }
    await afterChange(page, () => page.getByTestId("budget-tokens").fill(String(sample.cap)));
    expect(await page.getByTestId("dropped-row").count()).toBeGreaterThan(0);
    await showView(page, "budget");
    await expect(page.getByTestId("budget-tokens-meter")).toHaveAttribute("data-cap", String(sample.cap));
    expect(Number(await page.getByTestId("budget-tokens-meter").getAttribute("data-used"))).toBeLessThanOrEqual(
      sample.cap,
    );
    expect(await page.getByTestId("omission").count()).toBeGreaterThan(0);
  });
}

test("700 tokens on the Anthropic sample: omissions, then the trimmed request exported and pasted back", async ({
  page,
}) => {
  await openApp(page, { view: "dropped" });
  await pickSample(page, "anthropic");
  await afterChange(page, () => page.getByTestId("budget-tokens").fill("700"));
  const rows = page.getByTestId("dropped-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAttribute("data-id", "history:1");
  await expect(page.getByTestId("dropped-arithmetic").first()).toHaveText(/^797 \+ 12 = 809 > 700 tokens$/);
  await expect(page.getByTestId("dropped-path").first()).toHaveText("messages[1]");

  // Export: copy the trimmed request, then paste it over the input as a user would.
  await page.getByTestId("trimmed-export-copy").click();
  await expect(page.getByTestId("trimmed-export-copy")).toHaveAttribute("data-state", "copied");
  const trimmed = await page.evaluate(() => navigator.clipboard.readText());
  const body = JSON.parse(trimmed) as { model: string; messages: unknown[]; system: unknown };
  expect(body.model).toBe("claude-sonnet-4-5");
  expect(body.messages).toHaveLength(JSON.parse(sampleText("anthropic.json")).messages.length - 3);
  await afterChange(page, async () => {
    const editor = page.getByTestId("request-editor");
    await editor.focus();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("ControlOrMeta+V");
  });
  await expect(page.getByTestId("request-editor")).toHaveValue(trimmed);
  // Parsed back as Anthropic, it fits the same cap with nothing left to drop.
  await expect(page.getByTestId("dropped-empty")).toHaveAttribute("data-reason", "fits");
  await showView(page, "overview");
  await expect(page.getByTestId("card-format-value")).toHaveText("Anthropic Messages");
  await showView(page, "history");
  await expect(page.getByTestId("history-ok")).toBeVisible();

  // "Open in the editor" does the same in one click, keeping the original as the previous turn.
  await pickSample(page, "anthropic");
  await showView(page, "dropped");
  await afterChange(page, () => page.getByTestId("trimmed-export-open").click());
  await expect(page.getByTestId("previous-request-editor")).toHaveValue(sampleText("anthropic.json"));
  await expect(page.getByTestId("dropped-empty")).toHaveAttribute("data-reason", "fits");
});

test("tiers given to a wire system prompt's sections travel in a share link", async ({ page }) => {
  await openApp(page, { view: "tiers" });
  await pickSample(page, "conversation-turn-2");
  await page.getByTestId("tier-budget-input").fill("1500");
  const select = page.locator('[data-testid="tier-assign"][data-id="privacy"]');
  await select.selectOption("informational");
  await expect(page.locator('[data-testid="tier-row"][data-id="privacy"]')).toHaveAttribute("data-verdict", "dropped");
  const composed = await page.getByTestId("tier-composed").getAttribute("data-chars");
  await page.getByTestId("share-link").click();
  const url = await page.getByTestId("share-url").inputValue();
  await page.goto("about:blank");
  await page.goto(url);
  await expect(readyHost(page, "tiers")).toBeVisible();
  await expect(page.locator('[data-testid="tier-assign"][data-id="privacy"]')).toHaveValue("informational");
  await expect(page.getByTestId("tier-composed")).toHaveAttribute("data-chars", composed!);
});

test("Go to line scrolls the editor to a JSON error far down", async ({ page }) => {
  await openApp(page);
  const lines = Array.from({ length: 300 }, (_, i) => `  "k${i}": ${i},`).join("\n");
  await setInput(page, `{\n${lines}\n  "broken": ,\n}`, { state: "error" });
  const editor = page.getByTestId("request-editor");
  expect(await editor.evaluate((el) => el.scrollTop)).toBe(0);
  await page.getByTestId("json-error-goto").click();
  await expect(page.getByTestId("json-error-goto")).toContainText("Go to line 302");
  const { scrollTop, caretLine } = await editor.evaluate((el) => {
    const t = el as HTMLTextAreaElement;
    return { scrollTop: t.scrollTop, caretLine: t.value.slice(0, t.selectionStart).split("\n").length };
  });
  expect(caretLine).toBe(302);
  expect(scrollTop).toBeGreaterThan(1000);
});

test("Layout lists every part of a long request, only the rows in view in the page", async ({ page }) => {
  await openApp(page);
  const messages = Array.from({ length: 400 }, (_, i) => ({
    role: i % 2 ? "assistant" : "user",
    content: `message ${i}`,
  }));
  await setInput(page, JSON.stringify({ model: "gpt-4.1", messages }));
  await showView(page, "layout");
  const list = page.getByTestId("layout-parts-list");
  await expect(list).toHaveAttribute("data-virtualized", "true");
  const count = Number(await list.getAttribute("data-count"));
  expect(count).toBeGreaterThanOrEqual(400);
  const rows = list.getByTestId("layout-part");
  const shown = await rows.count();
  expect(shown).toBeGreaterThan(5);
  expect(shown).toBeLessThan(60);
  await expect(rows.first()).toHaveAttribute("data-path", "messages[0]");
  // Scrolled to its end, the list shows the last part.
  await list.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(list.locator('[data-path="messages[399]"]')).toBeVisible();
});

test("Raw reaches the last line of a request whose pretty JSON is taller than the browser's tallest element", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openApp(page);
  // A tool whose schema lists 2,000,000 values: 2,000,000 lines of pretty JSON, 36 M px at 18 px a
  // line, past Chromium's 33.5 M px cap on an element's height (4 MB of compact JSON).
  const values = new Array(2_000_000).fill(0);
  const tool = {
    type: "function",
    function: { name: "pick", parameters: { type: "object", properties: { n: { type: "integer", enum: values } } } },
  };
  await page.evaluate(
    (t) => navigator.clipboard.writeText(t),
    JSON.stringify({ model: "gpt-4.1", messages: [{ role: "user", content: "hi" }], tools: [tool] }),
  );
  const editor = page.getByTestId("request-editor");
  await afterChange(
    page,
    async () => {
      await editor.focus();
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.press("ControlOrMeta+V");
    },
    { timeout: 60_000 },
  );
  await showView(page, "raw");
  const list = page.getByTestId("raw-request");
  await expect(list).toHaveAttribute("data-rows", "fixed", { timeout: 30_000 });
  const count = Number(await list.getAttribute("data-count"));
  expect(count).toBeGreaterThan(2_000_000);
  expect(Number(await list.getAttribute("data-scale"))).toBeGreaterThan(1);
  // Scrolled to its end, the list shows its last line, inside the viewport.
  await list.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  const last = list.locator(`[data-index="${count - 1}"]`);
  await expect(last).toBeVisible();
  await expect(last).toContainText(String(count));
  const [box, view] = [await last.boundingBox(), await list.boundingBox()];
  expect(box!.y + box!.height).toBeLessThanOrEqual(view!.y + view!.height + 1);
  expect(box!.y).toBeGreaterThanOrEqual(view!.y);
});

test("a Gemini body without a model asks for one and uses the pick", async ({ page }) => {
  await openApp(page);
  const { model: _m, ...gemini } = JSON.parse(sampleText("gemini.json")) as Record<string, unknown>;
  await setInput(page, JSON.stringify(gemini, null, 2));
  await expect(page.getByTestId("model-prompt")).toBeVisible();
  await afterChange(page, () =>
    page
      .getByTestId("model-prompt-picker")
      .selectOption("gemini-2.5-flash")
      .then(() => undefined),
  );
  await expect(page.getByTestId("model-picker")).toHaveValue("gemini-2.5-flash");
  await expect(page.getByTestId("model-prompt")).toHaveCount(0);
  await showView(page, "budget");
  await expect(page.getByTestId("context-window-summary")).toContainText("gemini-2.5-flash");
});

test("a pasted response puts predicted vs actual input and cached tokens on Overview and Cache prefix", async ({
  page,
}) => {
  await openApp(page);
  await pickSample(page, "anthropic");
  // Every token figure says it is an estimate: Claude has no client-side tokenizer.
  await expect(page.getByTestId("card-size-value")).toHaveText(/^≈ [\d,]+ ± \d+% tokens$/);
  const usage = { input_tokens: 150, cache_read_input_tokens: 640, cache_creation_input_tokens: 0, output_tokens: 12 };
  const response = JSON.stringify({
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [{ type: "text", text: "Your order shipped." }],
    stop_reason: "end_turn",
    usage,
  });
  await afterChange(page, () => page.getByTestId("response-input").fill(response));
  const input = page.getByTestId("usage-input");
  await expect(input).toHaveAttribute("data-actual", "790");
  await expect(input).toContainText("≈");
  await expect(page.getByTestId("usage-cacheRead")).toHaveAttribute("data-actual", "640");
  await expect(page.getByTestId("usage-band")).toContainText("cold cache");
  await showView(page, "cache");
  await expect(page.getByTestId("token-basis")).toHaveAttribute("data-method", "estimate");
  await expect(page.getByTestId("usage-cacheRead")).toContainText("+640");
  // Just the usage object works too; clearing the box removes the comparison.
  await afterChange(page, () => page.getByTestId("response-input").fill(JSON.stringify(usage)));
  await expect(page.getByTestId("usage-input")).toHaveAttribute("data-actual", "790");
  await afterChange(page, () => page.getByTestId("response-clear").click());
  await expect(page.getByTestId("usage-table")).toHaveCount(0);
});

test("an OpenAI request is counted exactly with the tokenizer, loaded for its model", async ({ page }) => {
  await openApp(page);
  await setInput(
    page,
    JSON.stringify({
      model: "gpt-4o",
      messages: [
        { role: "system", content: "You answer in one sentence." },
        { role: "user", content: "What is a prompt cache?" },
      ],
    }),
  );
  await expect(page.getByTestId("card-size-value")).toHaveText(/^[\d,]+ tokens \(exact\)$/);
  await showView(page, "cache");
  await expect(page.getByTestId("token-basis")).toHaveAttribute("data-method", "exact");
});
