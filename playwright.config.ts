import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, resolveChromium } from "./e2e/chromium.mjs";
import { E2E_PORT } from "./e2e/support/port.mjs";

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
  // The HTML report shows each failed screenshot as expected / actual / diff with a slider:
  // `npx playwright show-report e2e/.out/report`.
  reporter: [["list"], ["html", { open: "never", outputFolder: "e2e/.out/report" }]],
  timeout: 30_000,
  // Zero tolerance: baselines are pixel-identical run to run (see `--disable-partial-raster` below
  // and `settle` in e2e/support/app.ts), so any changed pixel, even a slightly different colour,
  // fails with a diff image.
  expect: { toHaveScreenshot: { maxDiffPixels: 0, threshold: 0, animations: "disabled", caret: "hide", scale: "css" } },
  use: {
    ...devices["Desktop Chrome"],
    baseURL: `http://127.0.0.1:${E2E_PORT}/`,
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    locale: "en-US",
    timezoneId: "UTC",
    colorScheme: "light",
    reducedMotion: "reduce",
    // Partial raster (repainting only the damaged part of a tile over its old pixels) left rounded
    // corners ±1 in a colour channel depending on paint timing: about 1 screenshot in 10 differed.
    launchOptions: {
      args: [...CHROMIUM_ARGS, "--disable-partial-raster"],
      ...(executablePath ? { executablePath } : {}),
    },
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${E2E_PORT} --strictPort`,
    url: `http://127.0.0.1:${E2E_PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
