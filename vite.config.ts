import react from "@vitejs/plugin-react";
import { playwright } from "@vitest/browser-playwright";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { CHROMIUM_ARGS, resolveChromium } from "./e2e/chromium.mjs";

const root = fileURLToPath(new URL(".", import.meta.url));
const chromiumPath = resolveChromium();

// The devtools are a static site: root is devtools/, samples are served from public/.
const TEST_TIMEOUT = 30_000;

export default defineConfig({
  root: `${root}devtools`,
  publicDir: `${root}public`,
  base: "./",
  plugins: [react()],
  build: { outDir: `${root}dist-site`, emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 2000 },
  worker: { format: "es" },
  server: { port: 5173, open: false },
  preview: { port: 4173, strictPort: true },
  test: {
    root,
    // Each project sets a generous per-test timeout (TEST_TIMEOUT): property tests that take 1–3 s
    // on a quiet machine take several times that on a busy 2-core one (the 200 MB session test
    // runs beside them). Timeouts catch hangs only; speed is measured by `npm run bench`.
    projects: [
      {
        // The core suite in Node.
        // --expose-gc: the 200 MB session test measures the live heap.
        test: {
          name: "core-node",
          testTimeout: TEST_TIMEOUT,
          root,
          include: ["core/**/*.test.ts"],
          environment: "node",
          execArgv: ["--expose-gc"],
        },
      },
      {
        // The same files in real Chromium.
        test: {
          name: "core-chromium",
          testTimeout: TEST_TIMEOUT,
          root,
          include: ["core/**/*.test.ts"],
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { args: [...CHROMIUM_ARGS], ...(chromiumPath ? { executablePath: chromiumPath } : {}) },
            }),
            instances: [{ browser: "chromium" }],
          },
        },
      },
      {
        // The CLI as a child process over the built package (run after `npm run build:core`).
        test: { name: "cli", testTimeout: TEST_TIMEOUT, root, include: ["cli/**/*.test.mjs"], environment: "node" },
      },
      {
        plugins: [react()],
        test: {
          name: "devtools",
          testTimeout: TEST_TIMEOUT,
          root,
          include: ["devtools/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
        },
      },
    ],
  },
});
