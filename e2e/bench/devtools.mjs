// Devtools timings in headless Chromium, read from the app's own performance measures:
//   strata:paste-to-rendered  from the paste (the app's `paste`/`input` handler) until the
//                             views for the new inspection report are committed and painted
//   strata:view-switch        from the click on a view tab until that view is committed and painted
//   main-thread long tasks    every task over 50 ms (PerformanceObserver 'longtask') from the paste
//                             until the page is quiet again: the longest, and their sum; split at
//                             the app's `strata:paste-read` mark into the browser's share (making
//                             the pasted string, before the app's code runs) and the app's
//   clipboard read            `navigator.clipboard.readText()` of the same text alone, in the same
//                             page: the browser's share of every paste, before the app sees a byte
// Runs `vite build` into e2e/.out/bench/site (unless --skip-build), serves it with `vite preview` on a free port,
// pastes 1, 5 and 20 MB requests through the real clipboard and switches to every request view in the
// view nav (`[data-testid="view-nav"] [data-testid^="nav-"]` but the Session view, which has no request
// editor; else `view-tab-*` or role=tab).
// Prints one JSON object on stdout; progress goes to stderr. Usage:
//   node e2e/bench/devtools.mjs [--quick] [--skip-build]
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, resolveChromium } from "../chromium.mjs";
import { generateOpenAIChatTurns } from "./inputs.mjs";
import { root } from "./core-bundle.mjs";

export const PASTE_MEASURE = "strata:paste-to-rendered";
export const VIEW_SWITCH_MEASURE = "strata:view-switch";
export const PASTE_READ_MARK = "strata:paste-read";
/** Post → the whole report of a long request received (runner.ts), and the worker's share of it. */
export const WHOLE_MEASURE = "strata:inspect-whole";
export const WHOLE_WORKER_MEASURE = "strata:inspect-whole-worker";
/** Post → the first report received, and the worker's inspect (runner.ts; `detail` "report" is the main job's). */
export const FIRST_MEASURE = "strata:inspect";
export const FIRST_WORKER_MEASURE = "strata:inspect-worker";
const MB = 1024 * 1024;
const quick = process.argv.includes("--quick");
/** Sizes pasted (MB), and how many measured pastes each (after one warm-up). */
const SIZES = quick
  ? [[1, 2]]
  : [
      [1, 5],
      // More pastes at the sizes with a goal: with five and three, one slow paste moved the median by
      // 25% between runs (5 MB: 398 ms in one run, 499 ms in the next, same code).
      [5, 8],
      [20, 5],
    ];
const log = (...a) => console.error("[devtools bench]", ...a);

/** A port nobody listens on now (other sessions on this machine use 4173/4174). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitForServer(url, timeoutMs, server) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (server.exitCode !== null) throw new Error(`vite preview exited with ${server.exitCode} before serving ${url}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`vite preview did not answer on ${url} within ${timeoutMs} ms`);
}

/** Waits for at least one measure named `name`, then for the page to go quiet; returns all durations. */
async function takeMeasures(page, name, timeoutMs) {
  const end = Date.now() + timeoutMs;
  let seen = 0;
  let quietSince = 0;
  while (Date.now() < end) {
    const n = await page.evaluate((m) => performance.getEntriesByName(m, "measure").length, name);
    if (n > 0 && n === seen) {
      if (Date.now() - quietSince > 400) break;
    } else {
      seen = n;
      quietSince = Date.now();
    }
    await page.waitForTimeout(50);
  }
  return page.evaluate((m) => performance.getEntriesByName(m, "measure").map((e) => e.duration), name);
}

/**
 * A real paste, as a user does it: the text goes on the clipboard; then Ctrl+A, Ctrl+V in the
 * request editor — or, once a large input is shown as a preview panel instead of the textarea,
 * a click into that panel and Ctrl+V (a paste goes to the element holding the selection).
 */
async function paste(page, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  const target = page.locator('[data-testid="request-editor-large"], [data-testid="request-editor"]').first();
  if ((await target.getAttribute("data-testid", { timeout: 120_000 })) === "request-editor") {
    await target.focus();
    await page.keyboard.press("ControlOrMeta+A");
  } else {
    await target.click({ position: { x: 24, y: 12 } });
  }
  await page.evaluate((mark) => {
    performance.clearMeasures();
    performance.clearMarks(mark);
    window.__strataLongTasks.length = 0;
  }, PASTE_READ_MARK);
  await page.keyboard.press("ControlOrMeta+V");
}

/**
 * Where one paste's time went, from the app's marks and measures (cleared at each paste), in ms:
 * `clipboard` (the paste until its text reached the app), `beforePost` (until the main inspection's
 * job was posted), `worker` (the worker's inspect), `messages` (post → first report received, less
 * the worker's inspect: the text's and the report's copies and the waits for the two threads) and
 * `painted` (received → the measure's end, after the next paint). They add up to the paste measure.
 * `read` is the paste's `strata:paste-read` mark time, as read with its long tasks. Null when a
 * mark or measure is missing.
 */
async function pastePhases(page, read) {
  if (read === undefined) return null;
  return page.evaluate(
    ([rendered, read, first, worker]) => {
      const main = (name) => performance.getEntriesByName(name, "measure").find((e) => e.detail === "report");
      const r = performance.getEntriesByName(rendered, "measure").at(-1);
      const f = main(first);
      const w = main(worker);
      if (!r || !f || !w) return null;
      return {
        clipboard: read - r.startTime,
        beforePost: f.startTime - read,
        worker: w.duration,
        messages: f.duration - w.duration,
        painted: r.startTime + r.duration - (f.startTime + f.duration),
      };
    },
    [PASTE_MEASURE, read, FIRST_MEASURE, FIRST_WORKER_MEASURE],
  );
}

/**
 * Splits a paste's long tasks ([start, duration]) at `read`, when the pasted text reached the app
 * (its `strata:paste-read` mark; undefined when the app did not mark it: all counts as the app's).
 * Before it the main thread was the browser's, making the pasted string (the app's continuation
 * runs in that same task, from the mark on). Returns the longest of each side (0 for none).
 */
export function splitLongTasks(tasks, read) {
  let browser = 0;
  let app = 0;
  for (const [start, duration] of tasks) {
    const end = start + duration;
    if (read === undefined || start >= read) app = Math.max(app, duration);
    else if (end <= read) browser = Math.max(browser, duration);
    else {
      browser = Math.max(browser, read - start);
      app = Math.max(app, end - read);
    }
  }
  return { browser, app };
}

/** Installed before the app loads: every main-thread long task, as [start, duration]. */
function observeLongTasks() {
  window.__strataLongTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__strataLongTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
}

async function tabs(page) {
  for (const selector of [
    // The Session view reads a recorded session, not the pasted request (and hides the editor).
    '[data-testid="view-nav"] [data-testid^="nav-"]:not([data-testid="nav-session"])',
    '[data-testid^="view-tab-"]',
    '[role="tab"]',
  ]) {
    const locators = await page.locator(selector).all();
    if (locators.length > 1) return locators;
  }
  return [];
}

/** Pastes requests of `mb` MB `trials` + 1 times (the first is a warm-up) and visits every view after each. */
async function measureSize(context, url, mb, trials) {
  // Two different requests of the same size, pasted alternately, so every paste changes the text.
  const variants = [
    generateOpenAIChatTurns(mb * MB, { seed: 31 }).current,
    generateOpenAIChatTurns(mb * MB, { seed: 32 }).current,
  ];
  const page = await context.newPage();
  try {
    await page.goto(url);
    await page.getByTestId("request-editor").waitFor();
    await page.waitForLoadState("networkidle");
    const pastes = [];
    const longest = [];
    const longestApp = [];
    const longestBrowser = [];
    const blocked = [];
    const phases = [];
    const whole = [];
    const wholeWorker = [];
    const wholeLongest = [];
    const switches = {};
    let switchMissing = false;
    for (let t = 0; t < trials + 1; t++) {
      await paste(page, variants[t % 2]);
      const durations = await takeMeasures(page, PASTE_MEASURE, t === 0 ? 60_000 : 120_000);
      if (durations.length === 0) return { mb, bytes: variants[0].length, missing: PASTE_MEASURE };
      const { tasks, read } = await page.evaluate((mark) => {
        const marks = performance.getEntriesByName(mark, "mark");
        return { tasks: window.__strataLongTasks, read: marks.length > 0 ? marks.at(-1).startTime : undefined };
      }, PASTE_READ_MARK);
      if (t > 0) {
        pastes.push(Math.max(...durations)); // the first paste warms the page up
        longest.push(tasks.length === 0 ? 0 : Math.max(...tasks.map(([, d]) => d)));
        const split = splitLongTasks(tasks, read);
        longestApp.push(split.app);
        longestBrowser.push(split.browser);
        blocked.push(tasks.reduce((a, [, d]) => a + d, 0));
        const phase = await pastePhases(page, read);
        if (phase) phases.push(phase);
      }
      // The whole report follows the first (its lists are cut: every size here has over 1,000
      // messages); the views are switched once it is in, so no switch races it.
      const w = await takeMeasures(page, WHOLE_MEASURE, 60_000);
      if (t > 0 && w.length > 0) {
        whole.push(Math.max(...w));
        const after = await page.evaluate(
          ([worker, rendered]) => {
            const r = performance.getEntriesByName(rendered, "measure").at(-1);
            const from = r ? r.startTime + r.duration : Number.POSITIVE_INFINITY;
            return {
              worker: performance.getEntriesByName(worker, "measure").map((e) => e.duration),
              // long tasks that ended after the first report was rendered: the page while the rest came in
              longest: Math.max(0, ...window.__strataLongTasks.filter(([s, d]) => s + d > from).map(([, d]) => d)),
            };
          },
          [WHOLE_WORKER_MEASURE, PASTE_MEASURE],
        );
        if (after.worker.length > 0) wholeWorker.push(Math.max(...after.worker));
        wholeLongest.push(after.longest);
      }
      for (const tab of switchMissing ? [] : await tabs(page)) {
        const name = (await tab.getAttribute("data-testid")) ?? (await tab.textContent()) ?? "?";
        if ((await tab.getAttribute("aria-selected")) === "true" || (await tab.getAttribute("aria-current")) === "page")
          continue;
        await page.evaluate(() => performance.clearMeasures());
        await tab.click({ timeout: 120_000 });
        const d = await takeMeasures(page, VIEW_SWITCH_MEASURE, 30_000);
        if (d.length === 0) {
          switchMissing = true;
          break;
        }
        if (t > 0) (switches[name] ??= []).push(Math.max(...d));
      }
    }
    // The floor: JSON.parse of the same text in the same page.
    const parse = await page.evaluate((text) => {
      const out = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        JSON.parse(text);
        out.push(performance.now() - t0);
      }
      return out;
    }, variants[0]);
    // What the browser itself takes to hand over a paste: the same async clipboard read the app
    // makes (clipboard.ts), timed alone. Every paste-to-rendered figure includes it.
    await page.evaluate((t) => navigator.clipboard.writeText(t), variants[0]);
    const clipboardRead = await page.evaluate(async () => {
      const out = [];
      const tasks = [];
      for (let i = 0; i < 5; i++) {
        window.__strataLongTasks.length = 0;
        const t0 = performance.now();
        await navigator.clipboard.readText();
        out.push(performance.now() - t0);
        // long tasks are reported after they end: give the observer a task to deliver them
        await new Promise((r) => setTimeout(r, 50));
        tasks.push(Math.max(0, ...window.__strataLongTasks.map(([, d]) => d)));
      }
      return { out, tasks };
    });
    return {
      mb,
      bytes: variants[0].length,
      pastes,
      longest,
      longestApp,
      longestBrowser,
      blocked,
      phases,
      whole,
      wholeWorker,
      wholeLongest,
      switches,
      switchMissing,
      parse,
      clipboard: clipboardRead.out,
      clipboardLongest: clipboardRead.tasks,
    };
  } finally {
    await page.close();
  }
}

async function main() {
  // Same config as `npm run build`, but into e2e/.out/bench/site: other sessions on this machine
  // serve and rebuild dist-site/ while the bench runs. --skip-build reuses an earlier build.
  const site = join(root, "e2e/.out/bench/site");
  let outDir = site;
  if (process.argv.includes("--skip-build")) {
    if (!existsSync(join(site, "index.html"))) outDir = join(root, "dist-site");
    if (!existsSync(join(outDir, "index.html")))
      throw new Error("no built devtools to serve: run without --skip-build");
  } else {
    log("building the devtools (vite build) …");
    const built = spawnSync(
      join(root, "node_modules/.bin/vite"),
      ["build", "--outDir", site, "--emptyOutDir", "--logLevel", "warn"],
      { cwd: root, stdio: ["ignore", 2, 2] },
    );
    if (built.status !== 0) throw new Error("vite build failed");
  }
  const port = await freePort();
  const server = spawn(
    join(root, "node_modules/.bin/vite"),
    ["preview", "--outDir", outDir, "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
    {
      cwd: root,
      stdio: ["ignore", "ignore", 2],
    },
  );
  const url = `http://127.0.0.1:${port}/`;
  const executablePath = resolveChromium();
  const browser = await chromium.launch({ args: [...CHROMIUM_ARGS], ...(executablePath ? { executablePath } : {}) });
  try {
    await waitForServer(url, 30_000, server);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    await context.addInitScript(observeLongTasks);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: url.slice(0, -1) });
    const results = [];
    for (const [mb, trials] of SIZES) {
      try {
        results.push(await measureSize(context, url, mb, trials));
      } catch (error) {
        results.push({ mb, error: String(error?.message ?? error).split("\n")[0] });
      }
      log(`${mb} MB done`);
    }
    process.stdout.write(JSON.stringify({ ok: true, results }));
  } finally {
    await browser.close();
    server.kill("SIGTERM");
  }
}

main().catch((error) => {
  process.stdout.write(JSON.stringify({ ok: false, error: String(error?.stack ?? error) }));
  process.exitCode = 1;
});
