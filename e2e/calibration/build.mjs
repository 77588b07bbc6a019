// Rebuilds the token-count calibration corpus and the fitted coefficients from the recorded
// request/usage pairs collected under /work/research (public VCR cassettes; see the README files
// there). The request bodies are never written to the repository: only what the estimators need
// (source pointer, model, reported usage, feature vector, media sizes, tokenizer counts).
//
//   node e2e/calibration/build.mjs [researchDir]
//
// Writes core/tokens/calibration/corpus.json and core/tokens/coefficients.ts, then prints the
// held-out accuracy. Deterministic: the same research files give byte-identical outputs.
import { spawnSync } from "node:child_process";
import { loadTs } from "./load-ts.mjs";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const research = process.argv[2] ?? "/work/research";
const files = [join(research, "corpus-openai/pairs.jsonl"), join(research, "corpus-anthropic-gemini/pairs.jsonl")];
for (const f of files)
  if (!existsSync(f)) {
    console.error(`calibration: ${f} is missing; the committed corpus.json stays as it is.`);
    process.exit(1);
  }

const lib = await loadTs({ entry: "e2e/calibration/pair-features.ts" }, "calibration-lib");

const tokenizers = {
  o200k_base: await lib.createOpenAITokenizer("gpt-4o"),
  cl100k_base: await lib.createOpenAITokenizer("gpt-4"),
};

const read = (f) =>
  readFileSync(f, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** Bedrock Converse body → an Anthropic Messages body with the same content (Claude reads the same prompt). */
function converseToAnthropic(body, model) {
  const block = (c) => {
    if (c.text !== undefined) return { type: "text", text: c.text };
    if (c.guardContent?.text) return { type: "text", text: c.guardContent.text.text };
    if (c.image)
      return {
        type: "image",
        source: { type: "base64", media_type: `image/${c.image.format}`, data: c.image.source.bytes },
      };
    if (c.document) {
      const fmt = c.document.format;
      if (c.document.source?.text !== undefined)
        return { type: "document", source: { type: "text", media_type: "text/plain", data: c.document.source.text } };
      if (fmt === "pdf")
        return {
          type: "document",
          source: { type: "base64", media_type: "application/pdf", data: c.document.source.bytes },
        };
      return {
        type: "document",
        source: {
          type: "text",
          media_type: "text/plain",
          data: Buffer.from(c.document.source.bytes ?? "", "base64").toString("utf8"),
        },
      };
    }
    if (c.toolUse)
      return { type: "tool_use", id: c.toolUse.toolUseId, name: c.toolUse.name, input: c.toolUse.input ?? {} };
    if (c.toolResult)
      return {
        type: "tool_result",
        tool_use_id: c.toolResult.toolUseId,
        content: (c.toolResult.content ?? []).map((x) =>
          x.text !== undefined
            ? { type: "text", text: x.text }
            : x.json !== undefined
              ? { type: "text", text: JSON.stringify(x.json) }
              : (block(x) ?? { type: "text", text: "" }),
        ),
        ...(c.toolResult.status === "error" ? { is_error: true } : {}),
      };
    if (c.reasoningContent?.reasoningText)
      return {
        type: "thinking",
        thinking: c.reasoningContent.reasoningText.text,
        signature: c.reasoningContent.reasoningText.signature ?? "",
      };
    if (c.video) return { unsupported: "video" };
    return null; // cachePoint
  };
  const unsupported = [];
  const blocks = (list) =>
    (list ?? []).map(block).filter((b) => {
      if (b?.unsupported) unsupported.push(b.unsupported);
      return b && !b.unsupported;
    });
  const out = {
    model,
    max_tokens: 1024,
    messages: body.messages.map((m) => ({ role: m.role, content: blocks(m.content) })),
  };
  const system = blocks(body.system);
  if (system.length > 0) out.system = system;
  const tools = body.toolConfig?.tools?.filter((t) => t.toolSpec);
  if (tools?.length)
    out.tools = tools.map((t) => ({
      name: t.toolSpec.name,
      ...(t.toolSpec.description ? { description: t.toolSpec.description } : {}),
      input_schema: t.toolSpec.inputSchema?.json ?? { type: "object" },
    }));
  const choice = body.toolConfig?.toolChoice;
  if (choice)
    out.tool_choice = choice.auto
      ? { type: "auto" }
      : choice.any
        ? { type: "any" }
        : { type: "tool", name: choice.tool.name };
  return { body: out, unsupported };
}

const num = (...vs) => vs.find((v) => typeof v === "number") ?? 0;

function usageOf(p) {
  const u = p.usage;
  switch (p.format) {
    case "openai-chat":
    case "openai-responses": {
      const input = num(u.prompt_tokens, u.input_tokens);
      const d = u.prompt_tokens_details ?? u.input_tokens_details ?? {};
      return { usage: [input, num(d.cached_tokens), num(d.cache_write_tokens)], target: input };
    }
    case "anthropic": {
      const usage = [num(u.input_tokens), num(u.cache_read_input_tokens), num(u.cache_creation_input_tokens)];
      return { usage, target: usage[0] + usage[1] + usage[2] };
    }
    case "bedrock-converse": {
      const usage = [
        num(u.inputTokens, u.inputTokenCount),
        num(u.cacheReadInputTokens, u.cacheReadInputTokenCount),
        num(u.cacheWriteInputTokens, u.cacheWriteInputTokenCount),
      ];
      return { usage, target: usage[0] + usage[1] + usage[2] };
    }
    case "gemini": {
      const input = num(u.promptTokenCount, u.prompt_token_count);
      return { usage: [input, num(u.cachedContentTokenCount, u.cached_content_token_count), 0], target: input };
    }
  }
  throw new Error(`unknown format ${p.format}`);
}

const EXCLUDING_CAVEATS = new Set([
  "server_side_tools_in_request",
  "usage_spans_server_tool_iterations",
  "remote_mcp_tool_definitions_not_in_body",
  "context_management_or_compaction",
  "gemini_cachedContent_reference_tokens_not_in_body",
  "media_by_reference_not_in_body",
  "request_body_edited_in_cassette",
]);

const out = [];
for (const p of [...read(files[0]), ...read(files[1])]) {
  const { usage, target } = usageOf(p);
  const provider =
    p.format === "bedrock-converse"
      ? "bedrock"
      : p.format.startsWith("openai")
        ? "openai"
        : p.format === "anthropic"
          ? "anthropic"
          : "gemini";
  const flags = [];
  if (p.request_normalized || p.notes?.text_may_be_nfkc_normalized) flags.push("text_normalized_in_cassette");
  if (p.previous) flags.push("consecutive_turn");
  if (p.streamed || p.notes?.stream) flags.push("streamed");
  const record = {
    id: p.id,
    format: p.format,
    provider,
    model: p.model,
    source: { repo: p.source.repo, path: p.source.path, commit: p.source.commit, interaction: p.source.interaction },
    usage,
    target,
    excluded: null,
    flags,
  };
  const exclude = (reason) => {
    record.excluded = reason;
    out.push(record);
  };
  if (lib.CORRECTIONS[p.id] !== undefined) {
    exclude(lib.CORRECTIONS[p.id]);
    continue;
  }
  if (p.server_context) {
    exclude(`server-side context (${p.server_context_reason})`);
    continue;
  }
  const caveat = (p.notes?.calibration_caveats ?? []).find((c) => EXCLUDING_CAVEATS.has(c));
  if (caveat) {
    exclude(caveat);
    continue;
  }
  if (p.usage?.toolUsePromptTokenCount) {
    exclude("usage includes built-in tool prompt tokens");
    continue;
  }
  if (provider === "bedrock" && !/claude/.test(p.model)) {
    exclude("not a Claude model");
    continue;
  }
  if (target <= 0) {
    exclude("no input figure");
    continue;
  }
  let body = p.request;
  let format = p.format;
  if (p.format === "bedrock-converse") {
    const c = converseToAnthropic(p.request, p.model);
    if (c.unsupported.length > 0) {
      exclude(`media Strata does not count (${c.unsupported.join(", ")})`);
      continue;
    }
    body = c.body;
    format = "anthropic";
  } else if (p.format === "anthropic" && body.model === undefined) body = { ...body, model: p.model };
  let request;
  try {
    request = lib.parseWireRequest(body, { format }).request;
  } catch (e) {
    exclude(`not readable by parseWireRequest: ${e.code ?? "error"}`);
    continue;
  }
  const f = lib.pairFeatures(request, provider, p.model, (t) => tokenizers.o200k_base.count(t));
  if (f.notes.includes("media_not_counted")) {
    exclude("media Strata does not count (audio, video or an unknown file type)");
    continue;
  }
  if (f.notes.includes("media_size_unknown")) {
    exclude("media by reference (size not in the body)");
    continue;
  }
  record.x = f.x;
  record.o200k = f.o200k;
  record.quarter = f.quarter;
  if (f.media.length > 0) record.media = f.media;
  if (provider === "openai") {
    const model = p.model;
    const tok = tokenizers[lib.openaiEncoding(model)];
    const o = lib.openaiFeatures(request, model, (t) => tok.count(t));
    const { media: _m, ...rest } = o;
    record.openai = rest;
  }
  out.push(record);
}
out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
const corpus = { version: 1, features: lib.FEATURES, pairs: out };

// One line per pair keeps diffs reviewable.
const json = `{"version":1,"features":${JSON.stringify(corpus.features)},"pairs":[\n${out.map((r) => JSON.stringify(r)).join(",\n")}\n]}\n`;
writeFileSync(join(root, "core/tokens/calibration/corpus.json"), json);

console.log(`calibration: ${out.length} pairs (${out.filter((r) => r.excluded === null).length} usable) → corpus.json`);
// The coefficients follow from the corpus alone.
const refit = spawnSync(process.execPath, [join(root, "e2e/calibration/refit.mjs")], { cwd: root, stdio: "inherit" });
process.exit(refit.status ?? 1);
