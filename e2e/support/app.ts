// Shared setup and helpers for the devtools e2e specs (Playwright, real Chromium, built site).
import { test as base, expect, type Locator, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { E2E_PORT } from "./port.mjs";

/** The nine views, in nav order (Alt+1…9). Kept here, not imported from devtools/, so a renamed route fails loudly. */
export const VIEWS = [
  "overview",
  "layout",
  "tiers",
  "dropped",
  "cache",
  "budget",
  "templates",
  "history",
  "raw",
] as const;
export type View = (typeof VIEWS)[number];
export type Theme = "light" | "dark";
export type Slot = "current" | "previous";

/** `Date.now()` / `new Date()` in the page; timers, rAF and react-query keep running (see setFixedTime). */
export const FIXED_TIME = new Date("2026-01-15T12:00:00Z");
export const ORIGIN = `http://127.0.0.1:${E2E_PORT}`;

const SAMPLES_DIR = fileURLToPath(new URL("../../public/samples/", import.meta.url));

/** A bundled sample's text, as the page would fetch it. */
export const sampleText = (file: string): string => readFileSync(`${SAMPLES_DIR}${file}`, "utf8");

const READY = '[data-testid="view-host"][data-state="ready"][data-stale="false"][data-request-coming="false"]';

/** The view host once it shows a finished report (optionally for one view). */
export const readyHost = (page: Page, view?: View): Locator =>
  page.locator(view ? `${READY}[data-view="${view}"]` : READY);

export const host = (page: Page): Locator => page.getByTestId("view-host");

const testId = (slot: Slot, id: string) => (slot === "current" ? id : `previous-${id}`);

interface Guards {
  readonly pageErrors: string[];
  /** Messages of alert/confirm/prompt dialogs (each dismissed). */
  readonly dialogs: string[];
  /** Requests to anything but the app's own origin. */
  readonly outside: string[];
  readonly cspViolations: () => Promise<string[]>;
}

/** Same-origin, or a blob:/data: URL the page made itself: nothing else may be requested. */
export const isOwnRequest = (url: string): boolean =>
  url.startsWith(`${ORIGIN}/`) || url.startsWith(`blob:${ORIGIN}/`) || url.startsWith("data:");

/**
 * Every test: a frozen wall clock (setFixedTime, so timers still run: the app needs them), and at
 * the end no uncaught page error, no Content-Security-Policy violation, no dialog and no request
 * that leaves the page's origin (the devtools are a static site: nothing leaves the browser).
 */
export const test = base.extend<{ guards: Guards }>({
  guards: [
    async ({ page, context }, use) => {
      const dialogs: string[] = [];
      const outside: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(`${dialog.type()}: ${dialog.message()}`);
        void dialog.dismiss().catch(() => undefined);
      });
      context.on("request", (request) => {
        if (!isOwnRequest(request.url())) outside.push(`${request.method()} ${request.url().slice(0, 200)}`);
      });
      await page.clock.setFixedTime(FIXED_TIME);
      await page.addInitScript(() => {
        const seen: string[] = [];
        (globalThis as { __cspViolations?: string[] }).__cspViolations = seen;
        document.addEventListener("securitypolicyviolation", (e) =>
          seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
        );
      });
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      const cspViolations = async () =>
        page.isClosed()
          ? []
          : page.evaluate(() => (globalThis as { __cspViolations?: string[] }).__cspViolations ?? []).catch(() => []);
      await use({ pageErrors, dialogs, outside, cspViolations });
      expect(dialogs, "dialogs opened by the page").toEqual([]);
      expect(outside, "requests that left the page's origin").toEqual([]);
      expect(pageErrors, "uncaught errors in the page").toEqual([]);
      expect(await cspViolations(), "Content-Security-Policy violations").toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/**
 * Opens the app on a view and theme and waits for the start-up sample (the first bundled one) to be
 * inspected, unless `hash` is given (share links), in which case it only waits for the page.
 */
export async function openApp(page: Page, options: { view?: View; theme?: Theme; hash?: string } = {}): Promise<void> {
  const { view = "overview", theme = "light" } = options;
  await page.goto(options.hash ?? `./#/view/${view}?theme=${theme}`);
  if (options.hash === undefined) await expect(readyHost(page, view)).toBeVisible({ timeout: 15_000 });
  else await expect(page.getByTestId("view-nav")).toBeVisible();
}

/**
 * Runs `action` (anything that changes the input or the settings) and waits until the view host
 * shows the report for the new state: its key changed and it is no longer stale.
 */
export async function afterChange(
  page: Page,
  action: () => Promise<void>,
  options: { timeout?: number; state?: "ready" | "error" | "empty" } = {},
): Promise<void> {
  const { timeout = 15_000, state = "ready" } = options;
  const before = (await host(page).getAttribute("data-key")) ?? "";
  await action();
  if (state === "empty") {
    await expect(host(page)).toHaveAttribute("data-state", "empty", { timeout });
    return;
  }
  await expect(host(page)).not.toHaveAttribute("data-key", before, { timeout });
  await expect(host(page)).toHaveAttribute("data-state", state, { timeout });
  if (state === "ready") await expect(host(page)).toHaveAttribute("data-stale", "false", { timeout });
}

/** Picks a bundled sample (by id) in a slot's sample picker. Into the current slot it also brings its previous turn. */
export async function pickSample(
  page: Page,
  id: string,
  slot: Slot = "current",
  state: "ready" | "error" = "ready",
): Promise<void> {
  await afterChange(
    page,
    () =>
      page
        .getByTestId(testId(slot, "sample-picker"))
        .selectOption(id)
        .then(() => undefined),
    { state },
  );
}

/** Replaces a slot's text by typing it in one go (Playwright `fill`), scrolled back to the top. */
export async function setInput(
  page: Page,
  text: string,
  options: { slot?: Slot; state?: "ready" | "error" | "empty"; timeout?: number } = {},
): Promise<void> {
  const editor = page.getByTestId(testId(options.slot ?? "current", "request-editor"));
  await afterChange(page, () => editor.fill(text), {
    state: options.state ?? "ready",
    ...(options.timeout ? { timeout: options.timeout } : {}),
  });
  await editor.evaluate((el) => {
    el.scrollTop = 0;
    (el as HTMLTextAreaElement).setSelectionRange(0, 0);
  });
}

/** Switches views the way a link does (the URL is the source of truth) and waits for the view. */
export async function showView(page: Page, view: View, theme?: Theme): Promise<void> {
  await page.evaluate(
    (hash) => {
      location.hash = hash;
    },
    `#/view/${view}${theme ? `?theme=${theme}` : ""}`,
  );
  await expect(readyHost(page, view)).toBeVisible();
}

/**
 * Ready for a screenshot: nothing focused or hovered, every font face loaded, native selects re-laid
 * out, two frames painted, and no animation running (reducedMotion: the app drops its transitions).
 *
 * Why the selects: headless Chromium 156 keeps a `<select>`'s text rendering from the moment its
 * value last changed (here: while the page was still starting up), and that rendering differs
 * between page loads (2–4 glyph variants of the same text, seen on the sample pickers). Rebuilding
 * the select's layout box once fonts are ready made the pickers identical over dozens of page loads.
 */
export async function settle(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  const state = await page.evaluate(async () => {
    (document.activeElement as HTMLElement | null)?.blur?.();
    await document.fonts.ready;
    for (const select of document.querySelectorAll("select")) {
      const display = select.style.display;
      select.style.display = "none";
      void select.offsetHeight;
      select.style.display = display;
    }
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return {
      fonts: document.fonts.status,
      focused: document.activeElement === document.body || document.activeElement === null,
      animations: document.getAnimations().length,
    };
  });
  expect(state).toEqual({ fonts: "loaded", focused: true, animations: 0 });
}

/** The whole page (not just the viewport) against its baseline, once settled. */
export async function expectPageScreenshot(page: Page, name: string): Promise<void> {
  await settle(page);
  await expect(page).toHaveScreenshot(name, { fullPage: true });
}
