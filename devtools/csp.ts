/**
 * Imported first by main.tsx and the inspect worker, before any zod schema is built.
 * The page's Content-Security-Policy has no 'unsafe-eval'; zod's object fast path
 * compiles parsers with `new Function`, and even its probe for that is reported as a
 * CSP violation. `jitless` skips both (core's zod/mini shares this global config).
 *
 * Exported as a value that the entry points use: package.json says `"sideEffects": false`,
 * so a bare `import "./csp.ts"` would be dropped from the production build.
 */
import { config } from "zod/mini";

export const zodJitless: boolean = config({ jitless: true }).jitless === true;
