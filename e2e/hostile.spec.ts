// Hostile input: markup, script URLs and template escapes typed or pasted into every field show up
// as text; no dialog opens, no element is injected, no request leaves the origin and the CSP is never
// hit (the guards in support/app.ts check the last three after every test). Garbage, deep nesting
// and a 50 MB paste end in an error message or a result, never in a frozen or blank page.
import type { Page } from "@playwright/test";
import {
  afterChange,
  expect,
  host,
  openApp,
  readyHost,
  sampleText,
  setInput,
  showView,
  test,
  VIEWS,
} from "./support/app.ts";

const PAYLOADS = [
  "<img src=x onerror=alert(1)>",
  "<script>alert(1)</script>",
  "javascript:alert(1)",
  '<a href="javascript:alert(1)">click me</a>',
  "<svg onload=alert(1)>",
  '"><iframe src="javascript:alert(1)"></iframe>',
  "{{ ''.__class__.__mro__ }}",
  "{{constructor.constructor('alert(1)')()}}",
  "${alert(1)}",
] as const;
const ALL = PAYLOADS.join(" ");

/** Elements that could only come from markup in user data. */
async function injected(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll(
        'img, iframe, object, embed, frame, script:not([src]), [onerror], [onload], [onclick], [onmouseover], [onfocus], a[href^="javascript:" i], [src^="javascript:" i], [href^="javascript:" i]',
      ),
    ].map((e) => e.outerHTML.slice(0, 120)),
  );
}

async function expectClean(page: Page) {
  expect(await injected(page), "elements injected from user data").toEqual([]);
  await expect(page.getByTestId("app-header")).toBeVisible();
}

/** An OpenAI Chat request with a payload in every string a view might show, and two image URLs that must never be fetched. */
function hostileOpenAI(system: string = ALL): string {
  const turns = PAYLOADS.flatMap((p, i) => [
    { role: "user", content: p },
    { role: "assistant", content: `${i}: ${p}` },
  ]);
  return JSON.stringify({
    model: "gpt-4.1",
    tools: [
      {
        type: "function",
        function: {
          name: "lookup",
          description: ALL,
          parameters: { type: "object", properties: { q: { type: "string", description: ALL } } },
        },
      },
    ],
    messages: [
      { role: "system", content: system },
      {
        role: "user",
        content: [
          { type: "text", text: ALL },
          { type: "image_url", image_url: { url: "javascript:alert(1)" } },
          { type: "image_url", image_url: { url: "https://attacker.example/pixel.png?<img src=x onerror=alert(1)>" } },
        ],
      },
      { role: "assistant", content: ALL },
      ...turns,
    ],
  });
}

/** The bundled Strata sample with payloads in its template, arguments, sections, history, attachment and input. */
function hostileStrata(
  template = `You are {{ assistant.name }}. ${PAYLOADS[0]}\nNote: {{ note }}\nProject: {{ project }}`,
): string {
  const request = JSON.parse(sampleText("assembly-tiers.json"));
  request.template.template = template;
  request.template.args = { project: PAYLOADS[1], note: PAYLOADS[3] };
  request.template.defaults.assistant.name = PAYLOADS[2];
  request.sections[0].content = ALL;
  request.sections[2].content = PAYLOADS[4];
  request.history[0].content = ALL;
  request.attachments[0].name = `${PAYLOADS[0]}.log`;
  request.attachments[0].text = ALL;
  request.input = PAYLOADS[5];
  return JSON.stringify(request, null, 2);
}

test("markup in a pasted request stays text in every view, and no URL in it is fetched", async ({ page }) => {
  await openApp(page);
  await setInput(page, hostileOpenAI());
  await expect(page.getByTestId("request-editor")).toHaveValue(/onerror=alert/);
  for (const view of VIEWS) {
    await showView(page, view);
    await expectClean(page);
  }
  // History shows every message preview: each payload as literal text.
  await showView(page, "history");
  const messages = page.getByTestId("history-messages");
  for (const p of PAYLOADS) await expect(messages).toContainText(p);
  // Raw request and export are JSON text, not markup.
  await showView(page, "raw");
  await expect(page.getByTestId("raw-request")).toContainText("javascript:alert(1)");
  await page.getByTestId("raw-tab-export").click();
  for (const format of ["openai-chat", "openai-responses", "anthropic", "gemini"]) {
    await page.getByTestId("export-format").selectOption(format);
    await expect(page.getByTestId("export-output").or(page.getByTestId("export-error")).first()).toBeVisible();
    await expectClean(page);
  }
});

test("markup in the previous turn shows as text in the cache diff", async ({ page }) => {
  await openApp(page, { view: "cache" });
  await setInput(page, hostileOpenAI(PAYLOADS[1]), { slot: "previous" });
  await setInput(page, hostileOpenAI(PAYLOADS[0]));
  await expect(page.getByTestId("divergence")).toHaveAttribute("data-cause", "system_changed");
  await expect(page.getByTestId("divergence-before")).toContainText("<script>alert(1)</script>");
  await expect(page.getByTestId("divergence-after")).toContainText("<img src=x onerror=alert(1)>");
  await expectClean(page);
});

test("the model picker and the budget fields take markup as text and never commit it as a number", async ({ page }) => {
  await openApp(page);
  // Model: committed on Enter, shown in the overview as text.
  const model = page.getByTestId("model-picker");
  await afterChange(page, async () => {
    await model.fill(PAYLOADS[0]);
    await model.press("Enter");
  });
  await expect(page.getByTestId("card-format")).toContainText(PAYLOADS[0]);
  await expectClean(page);
  for (const p of PAYLOADS.slice(1)) {
    await afterChange(page, async () => {
      await model.fill(p);
      await model.press("Enter");
    });
    await expect(page.getByTestId("card-format")).toContainText(p);
  }
  await expectClean(page);

  // Budget caps: flagged invalid, the inspection is not re-run.
  for (const id of ["budget-tokens", "budget-bytes"]) {
    for (const p of PAYLOADS) {
      const key = await host(page).getAttribute("data-key");
      await page.getByTestId(id).fill(p);
      await expect(page.getByTestId(id)).toHaveValue(p);
      await expect(page.getByTestId(id)).toHaveAttribute("aria-invalid", "true");
      await expect(host(page)).toHaveAttribute("data-key", key!);
    }
    await page.getByTestId(id).fill("");
  }
  await expectClean(page);

  // The tier budget is a number field: typed markup never becomes a budget other than a number.
  await setInput(page, sampleText("assembly-tiers.json"));
  await showView(page, "tiers");
  const input = page.getByTestId("tier-budget-input");
  await input.focus();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(PAYLOADS[0]);
  const budget = await page.getByTestId("tier-summary").getAttribute("data-budget");
  expect(budget).toMatch(/^\d+$/);
  await expectClean(page);
});

test("a Strata request with payloads in its template block and arguments renders them as text", async ({ page }) => {
  await openApp(page, { view: "templates" });
  await setInput(page, hostileStrata());
  const output = page.getByTestId("template-output");
  await expect(output).toContainText(`You are ${PAYLOADS[2]}. ${PAYLOADS[0]}`);
  await expect(output).toContainText(`Note: ${PAYLOADS[3]}`);
  await expect(output).toContainText(`Project: ${PAYLOADS[1]}`);
  await expect(page.getByTestId("template-source")).toHaveValue(/onerror=alert\(1\)/);
  for (const view of VIEWS) {
    await showView(page, view);
    await expectClean(page);
  }
  await showView(page, "history");
  await expect(page.getByTestId("history-messages")).toContainText(PAYLOADS[5]);

  // Template escapes in the template itself: an error message or plain text, never evaluated.
  for (const escape of [
    PAYLOADS[6],
    PAYLOADS[7],
    "{{ cycler.__init__.__globals__.os }}",
    "{{ self.__dict__ }}",
    "{% for c in [].__class__.__base__.__subclasses__() %}{{ c }}{% endfor %}",
  ]) {
    await setInput(page, hostileStrata(`Hi ${escape}`));
    await showView(page, "templates");
    await expect(page.getByTestId("template-output").or(page.getByTestId("template-error")).first()).toBeVisible();
    await expect(page.getByTestId("template-summary")).toBeVisible();
    const shown = await page.getByTestId("template-output").or(page.getByTestId("template-error")).first().innerText();
    expect(shown).not.toMatch(/\[native code\]|<class '|\[object |<built-in|<module /);
    await expectClean(page);
  }
});

test("the template playground fields take escapes and markup as text", async ({ page }) => {
  await openApp(page, { view: "templates" });
  await setInput(page, sampleText("assembly-tiers.json"));
  const source = page.getByTestId("template-source");
  const args = page.getByTestId("template-args");
  const result = page.getByTestId("template-output").or(page.getByTestId("template-error")).first();
  for (const p of PAYLOADS) {
    await source.fill(`A ${p} {{ project }}`);
    await expect(result).toBeVisible();
    await args.fill(JSON.stringify({ project: p }));
    await expect(result).toBeVisible();
    if (!p.startsWith("{{")) await expect(page.getByTestId("template-output")).toContainText(`A ${p} ${p}`);
    await page.getByTestId("template-defaults").fill(p);
    await expect(page.getByTestId("template-error")).toHaveAttribute("data-field", "defaults");
    await page.getByTestId("template-defaults").fill("{}");
    await page.getByTestId("template-now").fill(p);
    await expect(page.getByTestId("template-error")).toBeVisible();
    await page.getByTestId("template-now").fill("2026-01-15T12:00:00Z");
    await expectClean(page);
  }
  // The {{name}} engine too.
  await page.getByTestId("template-engine-name").check();
  await source.fill(`Hi {{name}} ${PAYLOADS[0]}`);
  await args.fill(JSON.stringify({ name: PAYLOADS[1] }));
  await expect(page.getByTestId("template-output")).toContainText(`Hi ${PAYLOADS[1]} ${PAYLOADS[0]}`);
  await expectClean(page);
});

test("markup in the URL and in a dropped file's name shows as text", async ({ page }) => {
  await page.goto(`./#/view/${encodeURIComponent(PAYLOADS[0])}`);
  await expect(page.getByTestId("route-notice")).toContainText(PAYLOADS[0]);
  await expect(host(page)).toHaveAttribute("data-view", "overview");
  await expectClean(page);

  await page.goto("about:blank");
  await page.goto(`./#/view/cache?s=${encodeURIComponent(PAYLOADS[1])}`);
  await expect(page.getByTestId("route-notice")).toHaveAttribute("data-kind", "error");
  await expectClean(page);

  await page.goto("about:blank");
  await openApp(page);
  const dataTransfer = await page.evaluateHandle((name) => {
    const dt = new DataTransfer();
    dt.items.add(
      new File(['{"model":"gpt-4.1","messages":[{"role":"user","content":"hi"}]}'], name, { type: "application/json" }),
    );
    return dt;
  }, `${PAYLOADS[0]}.json`);
  await afterChange(page, () => page.getByTestId("input-panel-current").dispatchEvent("drop", { dataTransfer }));
  await expect(page.getByTestId("input-source")).toHaveText(`file: ${PAYLOADS[0]}.json`);
  await expectClean(page);
});

/** The page answers: a script runs and a keyboard shortcut switches the view. */
async function expectResponsive(page: Page) {
  expect(await page.evaluate(() => 6 * 7)).toBe(42);
  const view = await host(page).getAttribute("data-view");
  const next = view === "layout" ? "overview" : "layout";
  await page.keyboard.press(`Alt+Digit${next === "layout" ? 2 : 1}`);
  await expect(host(page)).toHaveAttribute("data-view", next);
  await expect(page.getByTestId("app-header")).toBeVisible();
  await expect(page.getByTestId("view-nav")).toBeVisible();
}

/** Deterministic pseudo-random bytes (mulberry32). */
function randomBytes(n: number, seed: number): string {
  let a = seed >>> 0;
  let out = "";
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out += String.fromCharCode(((t ^ (t >>> 14)) >>> 0) % 256);
  }
  return out;
}

test("random bytes end in a JSON error with a position", async ({ page }) => {
  await openApp(page);
  for (const seed of [1, 2, 3]) {
    const bytes = randomBytes(64 * 1024, seed);
    await setInput(page, bytes, { state: "error" });
    await expect(page.getByTestId("json-error")).toBeVisible();
    await expect(page.getByTestId("inspect-error")).toBeVisible();
    await expect(page.getByTestId("inspect-error-message")).not.toBeEmpty();
    await expectResponsive(page);
  }
  // And valid JSON made of random strings: a shape error listing paths.
  await setInput(
    page,
    JSON.stringify({
      model: randomBytes(40, 9),
      messages: [{ role: randomBytes(8, 10), content: randomBytes(2000, 11) }],
    }),
    { state: "error" },
  );
  await expect(page.getByTestId("shape-error").first()).toBeVisible();
  await expectResponsive(page);
  await expectClean(page);
});

test("a 10,000-deep JSON nest is refused with a message, not a stack overflow", async ({ page }) => {
  await openApp(page);
  const depth = 10_000;
  const nest = `{"model":"gpt-4.1","messages":[{"role":"user","content":"hi"}],"metadata":${"[".repeat(depth)}${"]".repeat(depth)}}`;
  await setInput(page, nest, { state: "error", timeout: 30_000 });
  await expect(page.getByTestId("inspect-error")).toHaveAttribute("data-code", "json_too_deep");
  await expect(page.getByTestId("inspect-error-message")).toContainText(/deep/i);
  await expectResponsive(page);
  // Objects too, and in the previous-turn slot.
  const objects = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  await setInput(page, objects, { state: "error", timeout: 30_000 });
  await expect(page.getByTestId("inspect-error")).toHaveAttribute("data-code", "json_too_deep");
  await setInput(page, sampleText("openai-chat.json"));
  await afterChange(page, () => page.getByTestId("previous-request-editor").fill(nest));
  await expectResponsive(page);
  await expectClean(page);
});

test("a 50 MB paste gives a result and the page keeps responding", async ({ page }) => {
  test.setTimeout(180_000);
  await openApp(page);
  const before = await host(page).getAttribute("data-key");
  // Built in the page (no 50 MB over the wire), pasted as a real ClipboardEvent with a DataTransfer.
  const length = await page.getByTestId("request-editor").evaluate((editor) => {
    const filler = "All work and no play makes Jack a dull boy. ".repeat(23_000); // ~1 MB
    const messages = Array.from({ length: 50 }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `${i}: ${filler}`,
    }));
    const text = JSON.stringify({ model: "gpt-4.1", messages });
    const data = new DataTransfer();
    data.setData("text/plain", text);
    editor.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    return text.length;
  });
  expect(length).toBeGreaterThan(50 * 1000 * 1000);
  await expect(page.getByTestId("request-editor-large")).toHaveAttribute("data-length", String(length));
  await expect(page.getByTestId("input-status")).toContainText("MB");
  // While the worker inspects, the page answers.
  expect(await page.evaluate(() => document.title)).toBe("Strata devtools");
  await expect(host(page)).not.toHaveAttribute("data-key", before!, { timeout: 30_000 });
  await expect(readyHost(page).or(page.locator('[data-testid="view-host"][data-state="error"]'))).toBeVisible({
    timeout: 150_000,
  });
  await expect(host(page)).toHaveAttribute("data-state", "ready");
  await expect(page.getByTestId("card-messages-value")).toHaveText("50");
  for (const view of VIEWS) {
    await showView(page, view);
    await expect(page.getByTestId(`view-${view}`)).toBeVisible({ timeout: 30_000 });
  }
  // Raw shows megabyte-long JSON lines clipped (laying them out whole froze the page for ~9 s).
  await expect(page.getByTestId("json-line-clipped").first()).toBeVisible();
  await expectResponsive(page);
  await expectClean(page);
});
