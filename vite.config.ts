import react from "@vitejs/plugin-react";
import { playwright } from "@vitest/browser-playwright";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { CHROMIUM_ARGS, resolveChromium } from "./e2e/chromium.mjs";

const root = fileURLToPath(new URL(".", import.meta.url));
const chromiumPath = resolveChromium();

// The devtools are a static site: root is devtools/, samples are served from public/.
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
    projects: [
      {
        // The core suite in Node.
        // --expose-gc: the 200 MB session test measures the live heap.
        test: {
          name: "core-node",
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
        test: { name: "cli", root, include: ["cli/**/*.test.mjs"], environment: "node" },
      },
      {
        plugins: [react()],
        test: {
          name: "devtools",
          root,
          include: ["devtools/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
        },
      },
    ],
  },
});
