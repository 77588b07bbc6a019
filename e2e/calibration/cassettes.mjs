// Re-derives calibration pairs from the recorded cassettes themselves: for each pair of
// core/tokens/calibration/corpus.json whose source repository has a local git mirror, reads the
// cassette at the recorded commit, takes the request body of the recorded interaction, and
// recomputes the pair's features with the current counter (pair-features.ts). Pairs whose
// recomputed features differ from the committed ones are listed; with --write they are replaced.
//
//   node e2e/calibration/cassettes.mjs <mirrorDir> [--provider=gemini] [--write]
//
// <mirrorDir> holds one bare or normal git repository per source as `<owner>+<name>/repo`
// (any snapshot that contains the recorded commit). Deterministic: the same cassettes give the
// same corpus. Then run refit.mjs for the coefficients.
import { execFileSync } from "node:child_process";
import { loadTs } from "./load-ts.mjs";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const args = process.argv.slice(2);
const mirrors = args.find((a) => !a.startsWith("--"));
const only = args.find((a) => a.startsWith("--provider="))?.slice("--provider=".length);
const write = args.includes("--write");
if (!mirrors) {
  console.error("usage: node e2e/calibration/cassettes.mjs <mirrorDir> [--provider=gemini] [--write]");
  process.exit(2);
}

const lib = await loadTs({ entry: "e2e/calibration/pair-features.ts" }, "calibration-lib");
const o200k = await lib.createOpenAITokenizer("gpt-4o");

const corpusFile = join(root, "core/tokens/calibration/corpus.json");
const corpus = JSON.parse(readFileSync(corpusFile, "utf8"));

const files = new Map();
/** The parsed cassette at `commit:path` of `repo`, or null when no mirror holds it. */
function cassette({ repo, commit, path }) {
  const key = `${repo}@${commit}:${path}`;
  if (files.has(key)) return files.get(key);
  const dir = join(mirrors, repo.replace("/", "+"), "repo");
  let parsed = null;
  if (existsSync(dir)) {
    try {
      const text = execFileSync("git", ["-C", dir, "show", `${commit}:${path}`], {
        encoding: "utf8",
        maxBuffer: 512 * 1024 * 1024,
      });
      parsed = path.endsWith(".json") ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 });
    } catch {
      parsed = null;
    }
  }
  files.set(key, parsed);
  return parsed;
}

/** The JSON request body of one VCR interaction (`parsed_body`, or `body` / `body.string` holding JSON). */
function requestBody(interaction) {
  const r = interaction?.request ?? {};
  if (r.parsed_body !== undefined) return r.parsed_body;
  let b = r.body;
  if (b !== null && typeof b === "object" && "string" in b) b = b.string;
  if (typeof b !== "string") return typeof b === "object" ? b : null;
  try {
    return JSON.parse(b);
  } catch {
    return null;
  }
}

let checked = 0;
let missing = 0;
const changed = [];
const stripped = (p, excluded) => ({
  id: p.id,
  format: p.format,
  provider: p.provider,
  model: p.model,
  source: p.source,
  usage: p.usage,
  target: p.target,
  excluded,
  flags: p.flags,
});
const pairs = corpus.pairs.map((p) => {
  const correction = lib.CORRECTIONS[p.id];
  if (correction !== undefined) {
    if (p.excluded !== correction) changed.push({ id: p.id, what: `corrected: ${correction}` });
    return stripped(p, correction);
  }
  if (p.excluded !== null || p.x === undefined || (only && p.provider !== only)) return p;
  // Bedrock Converse bodies and OpenAI's tokenizer figures come from build.mjs's conversions; this
  // reader re-derives Anthropic and Gemini bodies, which are read as recorded.
  if (p.format !== "gemini" && p.format !== "anthropic") return p;
  const c = cassette(p.source);
  const body = requestBody(c?.interactions?.[p.source.interaction]);
  if (body === null || typeof body !== "object") {
    missing++;
    return p;
  }
  checked++;
  const wire = p.format === "anthropic" && body.model === undefined ? { ...body, model: p.model } : body;
  const { request } = lib.parseWireRequest(wire, { format: p.format });
  const f = lib.pairFeatures(request, p.provider, p.model, (t) => o200k.count(t));
  const next = { ...p, x: f.x, o200k: f.o200k, quarter: f.quarter };
  if (f.media.length > 0) next.media = f.media;
  else delete next.media;
  const excluded = f.notes.includes("media_not_counted")
    ? "media Strata does not count (audio, video or an unknown file type)"
    : f.notes.includes("media_size_unknown")
      ? "media by reference (size not in the body)"
      : null;
  if (excluded !== null) {
    changed.push({ id: p.id, what: `now excluded: ${excluded}` });
    return stripped(p, excluded);
  }
  const diff = lib.FEATURES.filter((_, i) => next.x[i] !== p.x[i]);
  if (diff.length > 0 || next.o200k !== p.o200k || JSON.stringify(next.media ?? []) !== JSON.stringify(p.media ?? []))
    changed.push({ id: p.id, what: diff.join(" ") || "o200k/media" });
  return next;
});
console.log(
  `cassettes: ${checked} pairs re-derived, ${missing} without a readable cassette, ${changed.length} changed`,
);
for (const c of changed.slice(0, 200)) console.log(`  ${c.id}: ${c.what}`);
if (write) {
  const json = `{"version":1,"features":${JSON.stringify(corpus.features)},"pairs":[\n${pairs.map((r) => JSON.stringify(r)).join(",\n")}\n]}\n`;
  writeFileSync(corpusFile, json);
  console.log("cassettes: corpus.json written; run node e2e/calibration/refit.mjs");
}
