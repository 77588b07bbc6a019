// Finds a Chromium for Vitest browser mode and Playwright, in this order:
// $CHROMIUM_PATH, /usr/bin/chromium, Playwright's own downloaded browser.
// Run directly (`node e2e/chromium.mjs`), it also obtains one when none is found:
// as root with apt, Debian's chromium + the fonts the screenshot baselines use.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Flags that keep Chromium quiet and deterministic on a machine without a network. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--font-render-hinting=none",
];

/** @returns {string | undefined} */
export function resolveChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv))
      throw new Error(`CHROMIUM_PATH is set to ${fromEnv}, which does not exist: fix or unset it.`);
    return fromEnv;
  }
  if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  return undefined; // Playwright then uses its own browser, if one was installed
}

async function playwrightHasOwnBrowser() {
  try {
    const { chromium } = await import("playwright-core");
    return existsSync(chromium.executablePath());
  } catch {
    return false;
  }
}

async function ensure() {
  if (resolveChromium() || (await playwrightHasOwnBrowser())) {
    console.log(`chromium: ${resolveChromium() ?? "Playwright's own browser"}`);
    return;
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  let hasApt = false;
  try {
    execFileSync("apt-get", ["--version"], { stdio: "ignore" });
    hasApt = true;
  } catch {}
  if (isRoot && hasApt) {
    console.log("chromium: not found, installing Debian's chromium fonts-liberation fonts-dejavu-core …");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    execFileSync("apt-get", ["install", "-y", "-qq", "chromium", "fonts-liberation", "fonts-dejavu-core"], {
      stdio: "inherit",
      env,
    });
    if (resolveChromium()) return;
  }
  console.error(
    "chromium: none found. Install one (Debian/Ubuntu: `sudo apt-get install chromium fonts-liberation fonts-dejavu-core`, " +
      "elsewhere: `npx playwright install chromium`) or set CHROMIUM_PATH.",
  );
  process.exit(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await ensure();
