import { expect, expectPageScreenshot, FIXED_TIME, openApp, test } from "./support/app.ts";

test("opens with the first bundled sample loaded", async ({ page }) => {
  await openApp(page);
  await expect(page.getByTestId("request-editor")).toHaveValue(/"model"/);
  await expect(page.getByTestId("input-status")).toContainText("Valid JSON");
  await expect(page.getByTestId("input-source")).toHaveText(/^sample: OpenAI Chat Completions/);
  await expectPageScreenshot(page, "shell-sample-loaded.png");
});

test("the page clock is frozen while its timers keep running", async ({ page }) => {
  await openApp(page); // the start-up sample loaded: fetch, worker and react-query all ran
  expect(await page.evaluate(() => new Date().toISOString())).toBe(FIXED_TIME.toISOString());
  expect(await page.evaluate(() => new Promise<number>((r) => setTimeout(() => r(Date.now()), 50)))).toBe(
    FIXED_TIME.getTime(),
  );
});

test("shows line and column for malformed JSON", async ({ page }) => {
  await openApp(page);
  await page.getByTestId("request-editor").fill('{\n  "model": "gpt",\n  "messages": [,]\n}');
  await expect(page.getByTestId("json-error")).toContainText("line 3, column 16");
  await expect(page.getByTestId("json-error")).toHaveAttribute("data-line", "3");
  await expect(page.getByTestId("json-error")).toHaveAttribute("data-column", "16");
  // "Go to line 3" puts the caret on the offending character.
  await page.getByTestId("json-error-goto").click();
  const caret = await page
    .getByTestId("request-editor")
    .evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd));
  expect(caret).toBe(",");
});

test("an unknown view in the URL falls back to the overview and says so", async ({ page }) => {
  await page.goto("./#/view/nope");
  await expect(page.getByTestId("route-notice")).toHaveAttribute("data-kind", "error");
  await expect(page.getByTestId("route-notice")).toContainText('"nope"');
  await expect(page.getByTestId("view-host")).toHaveAttribute("data-view", "overview");
});
