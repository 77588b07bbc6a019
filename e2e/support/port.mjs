// The port `vite preview` serves the built devtools on for Playwright. CI uses 4173; a developer's
// checkout gets a port derived from its directory, so e2e runs in two worktrees on one machine do
// not collide. STRATA_E2E_PORT overrides both.
import { createHash } from "node:crypto";

const derived = () => 4200 + (createHash("sha256").update(process.cwd()).digest().readUInt16BE(0) % 700);

export const E2E_PORT = Number(process.env.STRATA_E2E_PORT) || (process.env.CI ? 4173 : derived());
