import { expect, test } from "@playwright/test";

test.beforeEach(async ({ page }) => {
  await page.clock.install({ time: new Date("2026-01-15T12:00:00Z") });
});

test("opens with the first bundled sample loaded", async ({ page }) => {
  await page.goto("./");
  await expect(page.getByTestId("request-editor")).toHaveValue(/"model"/);
  await expect(page.getByTestId("input-status")).toContainText("Valid JSON");
  await page.evaluate(() => document.fonts.ready);
  await expect(page).toHaveScreenshot("shell-sample-loaded.png");
});

test("shows line and column for malformed JSON", async ({ page }) => {
  await page.goto("./");
  await expect(page.getByTestId("input-status")).toContainText("Valid JSON");
  await page.getByTestId("request-editor").fill('{\n  "model": "gpt",\n  "messages": [,]\n}');
  await expect(page.getByTestId("json-error")).toContainText("line 3, column 16");
});
