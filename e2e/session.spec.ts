// The Session view: a HAR dropped on it is read in the worker and drawn as a timeline per thread;
// a bust opens its pair of requests in Cache prefix; the hash-only link reopens the session
// without prompt text. Screenshot baselines in light and dark (e2e/__screenshots__/session.spec.ts/).
import type { Page } from "@playwright/test";
import { expect, expectPageScreenshot, openApp, readyHost, sampleText, test, type Theme } from "./support/app.ts";

const sessionReady = (page: Page) => page.locator('[data-testid="view-host"][data-view="session"][data-state="ready"]');

/** Drops `text` as a file on the Session view's drop zone (a DataTransfer built in the page). */
async function dropSession(page: Page, name: string, text: string) {
  const zone = page.getByTestId("session-load");
  const dataTransfer = await page.evaluateHandle(
    ([n, t]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], n, { type: "application/json" }));
      return dt;
    },
    [name, text] as const,
  );
  await zone.dispatchEvent("dragenter", { dataTransfer });
  await zone.dispatchEvent("dragover", { dataTransfer });
  await zone.dispatchEvent("drop", { dataTransfer });
  await expect(sessionReady(page)).toBeVisible({ timeout: 15_000 });
}

async function openSession(page: Page, theme: Theme = "light") {
  await openApp(page, { theme });
  await page.getByTestId("nav-session").click();
  await expect(page.getByTestId("session-empty")).toBeVisible();
  await dropSession(page, "dispatch.har", sampleText("sessions/dispatch.har"));
}

for (const theme of ["light", "dark"] as const) {
  test(`a dropped HAR shows its threads, timeline and busts (${theme})`, async ({ page }) => {
    await openSession(page, theme);
    await expect(page.getByTestId("session-source")).toHaveText(/dispatch\.har · HAR · 8 records · 6 turns/);
    await expect(page.getByTestId("session-thread")).toHaveCount(2);
    await expect(page.getByTestId("timeline-turn")).toHaveCount(4);
    await expect(page.getByTestId("timeline-bust")).toHaveCount(2);
    await expect(page.getByTestId("session-bust")).toHaveCount(2);
    await expectPageScreenshot(page, `session-${theme}.png`);
  });
}

test("clicking a bust on the timeline lands on the pair in Cache prefix", async ({ page }) => {
  await openSession(page);
  await page.locator('[data-testid="timeline-turn"][data-bust="system_changed"]').click();
  await expect(readyHost(page, "cache")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("divergence")).toHaveAttribute("data-cause", "system_changed");
  await expect(page.getByTestId("input-source")).toHaveText("session dispatch.har: t1 turn 3 (log.entries[6])");
  await expect(page.getByTestId("previous-input-source")).toHaveText(
    "session dispatch.har: t1 turn 2 (log.entries[4])",
  );
});

test("a bust's button and the keyboard open the pair too", async ({ page }) => {
  await openSession(page);
  await page.getByTestId("session-open-bust").nth(1).click();
  await expect(readyHost(page, "cache")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("divergence")).toHaveAttribute("data-cause", "tool_order_changed");
  await page.keyboard.press("Alt+Digit0");
  await expect(sessionReady(page)).toBeVisible();
  await page.locator('[data-testid="timeline-turn"][data-turn="2"]').focus();
  await page.keyboard.press("Enter");
  await expect(readyHost(page, "cache")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("input-source")).toHaveText(/t1 turn 2/);
});

test("the hash-only link reopens the session without its prompts", async ({ page }) => {
  await openSession(page);
  await page.getByTestId("session-share").click();
  const url = await page.getByTestId("session-share-url").inputValue();
  expect(url).toMatch(/#\/view\/session\?theme=light&session=[A-Za-z0-9_-]+$/);
  await page.goto("about:blank");
  await page.goto(url);
  await expect(sessionReady(page)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("route-notice")).toHaveText(/hash-only session: 6 turns in 2 thread\(s\)/);
  await expect(page.getByTestId("session-source")).toHaveAttribute("data-kind", "fingerprints");
  await expect(page.getByTestId("session-bust")).toHaveCount(2);
  await expect(page.locator("body")).not.toContainText("Harbor");
});

test("a file that is not a session, and a JSONL with a broken line, are answered in the view", async ({ page }) => {
  await openApp(page);
  await page.getByTestId("nav-session").click();
  await dropSession(page, "notes.txt", "these are my notes");
  await expect(page.getByTestId("session-problem")).toHaveAttribute("data-code", "unreadable");
  const lines = sampleText("sessions/dispatch.jsonl").split("\n");
  lines[1] = "{not json";
  await dropSession(page, "broken.jsonl", lines.join("\n"));
  await expect(page.getByTestId("session-source")).toHaveText(/5 turns/);
  await expect(page.getByTestId("session-skipped")).toContainText("1 invalid json");
});
