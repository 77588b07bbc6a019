// The package's entry points, with the size goal and the checked budget of each (min+gzip bytes of
// an esbuild bundle of `export * from <entry>`, dependencies included). One table for the package
// check (fails over `budget`), the core guard (bundles every entry for a neutral platform) and
// `npm run bench` (prints the size beside `goal`).
//
// `goal` is where we want to be; `budget` catches accidents and keeps a margin (~10%) above what
// was measured, so a faster but slightly larger change is not blocked. Raise a budget only with a
// reason in the commit; lower it when the code shrinks.
const KB = 1024;
export const FULL_CORE_BEFORE_RELAYERING = 80_691; // 78.8 KB: `export *` of the single entry, 2026-11-29

export const ENTRIES = [
  {
    subpath: ".",
    file: "core/index.ts",
    purpose: "messages, assembly with context budgets, the tiered composer, `{{name}}` templates, errors",
    goal: 12 * KB,
    budget: 14_800, // measured 13,414 B at the re-layering
  },
  {
    subpath: "./assembly",
    file: "core/assembly/index.ts",
    purpose: "input and prompt builders, layouts, middleware, context budgets and their report",
    goal: 8 * KB,
    budget: 12_800, // measured 11,571 B (the positional fast paths cost ~1.4 KB, see git log)
  },
  {
    subpath: "./composer",
    file: "core/composer/index.ts",
    purpose: "tier gate, explanation, guidance, section builders, prompt contributions",
    goal: 3 * KB,
    budget: 7_700, // measured 6,943 B; composeBudgetedPrompt alone is well under the goal
  },
  {
    subpath: "./templates",
    file: "core/templates/index.ts",
    purpose: "Jinja-style templates in a sandbox with limits, volatility lint, `{{name}}` templates",
    goal: FULL_CORE_BEFORE_RELAYERING,
    budget: FULL_CORE_BEFORE_RELAYERING, // measured 26,030 B (@huggingface/jinja is ~46 KB of it, minified)
  },
  {
    subpath: "./conversation",
    file: "core/conversation/index.ts",
    purpose: "history rules, request pipeline, prompt arguments, response language",
    goal: undefined,
    budget: 5_700, // measured 5,151 B
  },
  {
    subpath: "./formats",
    file: "core/formats/index.ts",
    purpose: "read and write provider wire formats (zod schemas, converters, JSON with positions), the model table",
    goal: 15 * KB,
    // measured 28,173 B: zod/mini is ~6 KB of it, the sourced model table (MODEL_TABLE, notes and sources) ~7 KB
    budget: 31_000,
  },
  {
    subpath: "./request",
    file: "core/request/index.ts",
    purpose: "Strata's `AssemblyRequest` JSON: `parseRequest` (it or any wire format) and `prepareAssembly`",
    goal: undefined,
    budget: 50_000, // measured 46,613 B: zod schemas of every format plus the Jinja engine for templates
  },
  {
    subpath: "./cache",
    file: "core/cache/index.ts",
    purpose: "segments, stable-prefix comparison, cache rules, simulator, breakpoints, fingerprints",
    goal: 14 * KB,
    budget: 16_600, // measured 15,053 B
  },
  {
    subpath: "./inspect",
    file: "core/inspect/index.ts",
    purpose: "inspect(): any request → one plain-JSON report; next-turn simulation; received bundles",
    goal: FULL_CORE_BEFORE_RELAYERING,
    budget: FULL_CORE_BEFORE_RELAYERING, // measured 78,234 B: everything above plus jinja and zod
  },
  {
    subpath: "./session",
    file: "core/session/index.ts",
    purpose: "sessions: HAR / JSONL → threads, per-turn cache and busts, usage read from responses, cost",
    goal: undefined,
    // measured 48,136 B: the wire readers (zod schemas) and the model table are most of it; no Jinja
    budget: 53_000,
  },
  {
    subpath: "./tokenizers/openai",
    file: "core/tokenizers/openai/index.ts",
    purpose:
      "OpenAI's exact tokenizer (gpt-tokenizer: o200k_base and cl100k_base rank tables) for `countRequestTokens`",
    goal: undefined,
    // measured 1,494,044 B: both rank tables, because esbuild without code splitting inlines the
    // dynamic import of each; a splitting bundler (Vite, the devtools) loads only the model's
    // encoding: o200k_base ~1.07 MB, cl100k_base ~0.44 MB min+gzip.
    budget: 1_650_000,
  },
];

/** `prompt-strata` or `prompt-strata/<name>`: how a user imports the entry. */
export const importName = (entry) =>
  entry.subpath === "." ? "prompt-strata" : `prompt-strata/${entry.subpath.slice(2)}`;

/** ESM source re-exporting every entry (for the bench and runners, which call any public name). */
export const allEntriesSource = (rootDir) =>
  ENTRIES.map((e) => `export * from ${JSON.stringify(`${rootDir}/${e.file}`)};`).join("\n");
