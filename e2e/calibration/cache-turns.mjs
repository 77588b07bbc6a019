// Rebuilds the cache-turn fixture (core/cache/calibration/cache-turns.json): recorded consecutive
// turns from public VCR cassettes in fetched repositories, with the cached tokens each provider
// reported. No prompt text is written: per turn only the source pointer (repo, path, commit,
// interaction), the time it was recorded when the cassette says, the reported usage, and the
// request's fingerprint bundle — segment paths, byte lengths, SHA-256s and the tokens
// countRequestTokens gives each segment (exact for OpenAI, with its tokenizer).
//
//   node e2e/calibration/cache-turns.mjs [mirrorDir]     (default /work/.mirror)
//
// A sequence is the POST requests of one cassette to one endpoint and model, in recorded order,
// with a usage figure in every response. Deterministic: the same snapshots give the same file.
import { loadTs } from "./load-ts.mjs";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cassettesMentioning, headCommit, mirrorDir, readCassette } from "./vcr.mjs";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const mirror = process.argv[2] ?? "/work/.mirror";

/** Repositories whose cassettes were recorded against the real APIs (the calibration corpus's sources). */
export const REPOS = [
  "pydantic/pydantic-ai",
  "Mirascope/mirascope",
  "crewAIInc/crewAI",
  "posit-dev/chatlas",
  "crmne/ruby_llm",
  "tidyverse/ellmer",
  "Arize-ai/openinference",
  "traceloop/openllmetry",
];
// Gemini leaves `cachedContentTokenCount` out when nothing was read: its cassettes are found by `promptTokenCount`.
const WORDS = [
  "cached_tokens",
  "cache_read_input_tokens",
  "cache_creation_input_tokens",
  "cachedContentTokenCount",
  "promptTokenCount",
];

const lib = await loadTs({ entry: "e2e/calibration/cache-turn-lib.ts" }, "cache-turn-lib");
const tokenizers = {
  o200k_base: await lib.createOpenAITokenizer("gpt-4o"),
  cl100k_base: await lib.createOpenAITokenizer("gpt-4"),
};

/** Endpoint → wire format and model (Gemini's model is in the path). */
export function endpointOf(uri, body) {
  const path = uri.replace(/[?#].*$/, "");
  if (/\/chat\/completions$/.test(path)) return { format: "openai-chat", provider: "openai", model: body?.model };
  if (/\/responses$/.test(path)) return { format: "openai-responses", provider: "openai", model: body?.model };
  if (/\/v1\/messages$/.test(path)) return { format: "anthropic", provider: "anthropic", model: body?.model };
  const g = /\/models\/([^/:]+):(?:generateContent|streamGenerateContent)$/.exec(path);
  if (g) return { format: "gemini", provider: "gemini", model: decodeURIComponent(g[1]) };
  return null;
}

/**
 * Only the provider's own API has the provider's cache: an OpenAI-format endpoint of another
 * service (Groq, DeepSeek, OpenRouter, …) caches by its own rules. Mirascope's recordings go
 * through its router (`/router/v2/<provider>/`), which forwards to the provider's API.
 */
const HOSTS = {
  openai: [/^api\.openai\.com$/, /\.openai\.azure\.com$/],
  anthropic: [/^api\.anthropic\.com$/],
  gemini: [/^generativelanguage\.googleapis\.com$/, /aiplatform\.googleapis\.com$/],
};
export function servedBy(provider, uri) {
  let url;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (HOSTS[provider].some((h) => h.test(url.hostname))) return true;
  const router = /^\/router\/v2\/([a-z]+)\//.exec(url.pathname);
  return router !== null && (router[1] === provider || (provider === "gemini" && router[1] === "google"));
}

const parseJson = (t) => {
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
};

export function collect() {
  const sequences = [];
  const skipped = {};
  const skip = (why) => {
    skipped[why] = (skipped[why] ?? 0) + 1;
  };
  for (const repo of REPOS) {
    const dir = mirrorDir(mirror, repo);
    if (!dir) {
      console.error(`cache-turns: ${repo} is not fetched under ${mirror}; skipped`);
      continue;
    }
    const commit = headCommit(dir);
    for (const path of cassettesMentioning(dir, commit, WORDS)) {
      let interactions;
      try {
        interactions = readCassette(dir, commit, path);
      } catch {
        skip("cassette not readable (absent from the snapshot)");
        continue;
      }
      const groups = new Map();
      for (const it of interactions) {
        if (it.method !== "POST" || it.request === null || it.response === null) continue;
        if (it.status !== null && it.status !== 200) continue;
        const body = parseJson(it.request);
        if (body === undefined) continue;
        const ep = endpointOf(it.uri, body);
        if (!ep || typeof ep.model !== "string") continue;
        if (!servedBy(ep.provider, it.uri)) {
          skip(`${ep.format} endpoint of another service`);
          continue;
        }
        const key = `${ep.format} ${ep.model}`;
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push({ it, body, ep });
      }
      for (const list of groups.values()) {
        if (list.length < 2) continue;
        const turns = [];
        for (const { it, body, ep } of list) {
          const usage = lib.readUsage(ep.format, it.response);
          if (!usage) {
            skip("response without usage");
            turns.length = 0;
            break;
          }
          const explicit = ep.format === "gemini" && (body.cachedContent ?? body.cached_content) !== undefined;
          const tokenizer = ep.provider === "openai" ? tokenizers[lib.openaiEncoding(ep.model)] : undefined;
          let counted;
          const b = ep.format === "gemini" && body.model === undefined ? { ...body, model: ep.model } : body;
          try {
            counted = lib.countedBundle(b, ep.format, ep.provider, ep.model, tokenizer);
          } catch (e) {
            skip(`request not readable: ${e.code ?? e.message}`);
            turns.length = 0;
            break;
          }
          // CACHE_TURNS_QUARTER=1: segments measured ÷4 instead (the simulator's input before counted tokens), for the bench's baseline.
          if (process.env.CACHE_TURNS_QUARTER) counted.bundle = lib.quarterBundle(b, ep.format, ep.provider);
          turns.push({
            source: { repo, path, commit, interaction: it.index },
            at: it.at,
            format: ep.format,
            usage: { input: usage.input, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite },
            method: counted.count.method,
            ...(explicit ? { explicitCache: true } : {}),
            bundle: counted.bundle,
          });
        }
        if (turns.length >= 2)
          sequences.push({ provider: list[0].ep.provider, format: list[0].ep.format, model: list[0].ep.model, turns });
      }
    }
  }
  return { sequences, skipped };
}

/**
 * The fixture's compact form: per sequence a table of its distinct segments (consecutive turns
 * repeat most of theirs), each turn a list of indexes into it. A segment is
 * `[path, kind, region, role, messageIndex, blockType, byteLength, tokens, sha256 (first 16 hex), breakpoint]`;
 * cache/calibration/evaluate.ts expands it back into fingerprint bundles.
 */
function compact(sequences) {
  return sequences.map((q) => {
    const table = [];
    const index = new Map();
    const turns = q.turns.map((t) => {
      const ids = t.bundle.segments.map((g) => {
        const row = [
          g.path,
          g.kind,
          g.region,
          g.role,
          g.messageIndex,
          g.blockType,
          g.byteLength,
          g.tokens,
          g.sha256.slice(0, 16),
          g.cacheBreakpoint ? 1 : 0,
        ];
        const key = JSON.stringify(row);
        let id = index.get(key);
        if (id === undefined) {
          id = table.length;
          table.push(row);
          index.set(key, id);
        }
        return id;
      });
      return {
        source: t.source,
        at: t.at,
        usage: t.usage,
        method: t.method,
        ...(t.explicitCache ? { explicitCache: true } : {}),
        ...(t.bundle.automaticCaching ? { automaticCaching: true } : {}),
        segments: ids,
      };
    });
    return { provider: q.provider, format: q.format, model: q.model, segments: table, turns };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { sequences, skipped } = collect();
  const out = compact(sequences);
  // One line per turn keeps diffs reviewable.
  const lines = out.map((q) => {
    const { turns, segments, ...head } = q;
    return `{${JSON.stringify(head).slice(1, -1)},"segments":${JSON.stringify(segments)},"turns":[\n${turns.map((t) => JSON.stringify(t)).join(",\n")}\n]}`;
  });
  const file = process.env.CACHE_TURNS_QUARTER
    ? join(root, "e2e/.out/cache-turns-quarter.json")
    : join(root, "core/cache/calibration/cache-turns.json");
  writeFileSync(file, `{"version":1,"repos":${JSON.stringify(REPOS)},"sequences":[\n${lines.join(",\n")}\n]}\n`);
  const turns = out.reduce((n, q) => n + q.turns.length, 0);
  console.log(`cache-turns: ${out.length} sequences, ${turns} turns → ${file}`);
  console.log("left out:", skipped);
}
