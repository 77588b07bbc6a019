/**
 * Golden vectors: fixed inputs whose outputs every runtime must reproduce byte for byte.
 * Each case turns its input into one string (the output itself, or JSON of it); the
 * committed `hashes.json` holds the SHA-256 of that string's UTF-8 bytes.
 * `core/golden.test.ts` checks them in every runner (Node, Chromium, workerd, edge-runtime,
 * Deno, Bun); `node e2e/golden/update.mjs` regenerates the hashes on purpose.
 *
 * Rules: inputs are literals (no clock, no randomness, no environment); a case name never
 * changes meaning (rename it instead); outputs come from the public API (core/index.ts)
 * only. Add cases freely — a new case fails everywhere until its hash is committed.
 */
import { assemblyCases, promptTemplateCases } from "./cases/assembly.ts";
import { composerCases } from "./cases/composer.ts";
import { messageCases } from "./cases/messages.ts";
import { templateCases } from "./cases/templates.ts";
import { wireCases } from "./cases/wire.ts";
import type { GoldenCase } from "./support.ts";

export type { GoldenCase } from "./support.ts";

export const goldenCases: readonly GoldenCase[] = [
  ...messageCases,
  ...assemblyCases,
  ...promptTemplateCases,
  ...composerCases,
  ...templateCases,
  ...wireCases,
];
