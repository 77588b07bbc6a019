import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, resolveChromium } from "./e2e/chromium.mjs";

const executablePath = resolveChromium();

// e2e runs against the built static site (`npm run build`) served by `vite preview`.
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "e2e/.out/results",
  snapshotPathTemplate: "e2e/__screenshots__/{testFilePath}/{arg}{ext}",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env["CI"],
  retries: 0,
  reporter: [["list"]],
  timeout: 30_000,
  expect: { toHaveScreenshot: { maxDiffPixels: 0, animations: "disabled", caret: "hide" } },
  use: {
    ...devices["Desktop Chrome"],
    baseURL: "http://127.0.0.1:4173/",
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    locale: "en-US",
    timezoneId: "UTC",
    colorScheme: "light",
    reducedMotion: "reduce",
    launchOptions: { args: [...CHROMIUM_ARGS], ...(executablePath ? { executablePath } : {}) },
  },
  webServer: {
    command: "npx vite preview --host 127.0.0.1 --port 4173 --strictPort",
    url: "http://127.0.0.1:4173/",
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
