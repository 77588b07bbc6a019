/**
 * `CACHE_RULES`: provider prompt-cache facts as dated data rows. Conflicting sources are
 * separate rows (e.g. Sonnet 4.6's documented vs observed minimum); `selectCacheRule` takes
 * the first `documented` row that matches, and reports the others as alternatives.
 * Facts come from ../shared/CACHE-RULES.md (collected 2026-11) unless a row's source says otherwise.
 */
import { InvalidInputError } from "../util/errors.ts";
import { matchGlob } from "../util/glob.ts";
import type { CacheProvider, CacheRule } from "./types.ts";

const ANTHROPIC_DOCS = "Anthropic docs, Prompt caching (platform.claude.com/docs/en/build-with-claude/prompt-caching)";
const OPENAI_GUIDE = "OpenAI docs, Prompt caching guide (platform.openai.com/docs/guides/prompt-caching)";
const OPENAI_PRICING = "OpenAI API pricing page, cached-input column (openai.com/api/pricing)";
const ANTHROPIC_PRICING = "Anthropic docs, Pricing (platform.claude.com/docs/en/about-claude/pricing), read 2026-12-01";
const GEMINI_DOCS = "Google AI docs, Context caching (ai.google.dev/gemini-api/docs/caching)";
const BEDROCK_DOCS =
  "AWS docs, Amazon Bedrock User Guide, Prompt caching for faster model inference (docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html), read 2026-12-01";

function anthropic(
  id: string,
  models: string,
  minTokens: number,
  status: CacheRule["status"] = "documented",
  note: string | null = null,
  source = ANTHROPIC_DOCS,
): CacheRule {
  return {
    id,
    provider: "anthropic",
    models,
    mode: "breakpoints",
    minTokens,
    hitIncrement: null,
    maxBreakpoints: 4,
    lookbackBlocks: 20,
    readMultiplier: 0.1,
    writeMultiplier: 1.25,
    // A 1-hour write costs 2× input on every Claude model (pricing page), Haiku 3 included.
    writeMultiplier1h: 2,
    ttl: "5m",
    status,
    source,
    date: "2026-11",
    note,
  };
}

function openai(
  id: string,
  models: string,
  readMultiplier: number,
  status: CacheRule["status"],
  source: string,
  date: string,
  note: string | null,
  hitIncrement: number | null = null,
): CacheRule {
  return {
    id,
    provider: "openai",
    models,
    mode: "automatic",
    minTokens: 1024,
    hitIncrement,
    maxBreakpoints: null,
    lookbackBlocks: null,
    readMultiplier,
    writeMultiplier: 1,
    writeMultiplier1h: null,
    ttl: "5-10m idle (up to 1h; 24h with prompt_cache_retention)",
    status,
    source,
    date,
    note,
  };
}

function gemini(
  id: string,
  models: string,
  minTokens: number,
  status: CacheRule["status"],
  note: string | null,
): CacheRule {
  return {
    id,
    provider: "gemini",
    models,
    mode: "automatic",
    minTokens,
    hitIncrement: null,
    maxBreakpoints: null,
    lookbackBlocks: null,
    readMultiplier: 0.1,
    writeMultiplier: 1,
    writeMultiplier1h: null,
    ttl: "implicit (not published)",
    status,
    source: GEMINI_DOCS,
    date: "2026-11",
    note,
  };
}

/** Table order matters: the first matching row of the wanted status wins, so specific patterns come first. */
export const CACHE_RULES: readonly CacheRule[] = [
  anthropic("anthropic-opus-4-6", "claude-opus-4-6*", 4096),
  anthropic("anthropic-opus-4-5", "claude-opus-4-5*", 4096),
  anthropic("anthropic-haiku-4-5", "claude-haiku-4-5*", 4096),
  anthropic(
    "anthropic-sonnet-4-6",
    "claude-sonnet-4-6*",
    1024,
    "documented",
    "Users report no caching below 2,048 tokens; see anthropic-sonnet-4-6-observed.",
  ),
  anthropic(
    "anthropic-sonnet-4-6-observed",
    "claude-sonnet-4-6*",
    2048,
    "observed",
    "Minimum observed by users, conflicting with the documented 1,024.",
    "User reports collected in ../shared/CACHE-RULES.md",
  ),
  anthropic("anthropic-sonnet-4-5", "claude-sonnet-4-5*", 1024),
  anthropic("anthropic-opus-4-1", "claude-opus-4-1*", 1024),
  anthropic("anthropic-opus-4", "claude-opus-4*", 1024),
  anthropic("anthropic-sonnet-4", "claude-sonnet-4*", 1024),
  anthropic("anthropic-sonnet-3-7", "claude-3-7-sonnet*", 1024),
  anthropic("anthropic-haiku-3-5", "claude-3-5-haiku*", 2048),
  {
    // The pricing page lists $0.03 reads and $0.30 writes on a $0.25 input: not the usual 0.1× and 1.25×.
    ...anthropic(
      "anthropic-haiku-3",
      "claude-3-haiku*",
      2048,
      "documented",
      null,
      `${ANTHROPIC_DOCS}; multipliers from ${ANTHROPIC_PRICING}`,
    ),
    readMultiplier: 0.12,
    writeMultiplier: 1.2,
  },
  {
    // Bedrock Converse with Amazon Nova: cachePoint markers as for Claude, but not on tools, and at
    // most 32k cached tokens. Claude on Bedrock uses the Claude rows above: the AWS table gives the
    // same minimums (1,024 for Claude 3.7 Sonnet, 2,048 for Claude 3.5 Haiku) and 4 checkpoints.
    ...anthropic(
      "bedrock-nova",
      "nova-*",
      1000,
      "documented",
      "Amazon Nova on Bedrock: checkpoints in system and messages only (tools are not cached), at most 32k cached tokens. Read and write multipliers as remembered from the Bedrock pricing page (75% off reads, writes at the input price): check them.",
      BEDROCK_DOCS,
    ),
    readMultiplier: 0.25,
    writeMultiplier: 1,
  },
  anthropic(
    "anthropic-fallback",
    "*",
    1024,
    "documented",
    "Fallback for models not listed: the most common documented minimum.",
  ),
  {
    // GPT-5.6 bills cache writes at 1.25× input (usage.input_tokens_details.cache_write_tokens);
    // earlier OpenAI models write for free. Prices per MODEL_TABLE (formats/models.ts).
    ...openai(
      "openai-gpt-5-6",
      "gpt-5.6*",
      0.1,
      "documented",
      `pydantic/genai-prices openai.yml @47df840 (2026-08-21); minimum from ${OPENAI_GUIDE}`,
      "2026-08",
      "Cache writes cost 1.25× input from GPT-5.6 on (also reported in coder/mux issue #3705, 2026-07-09).",
    ),
    writeMultiplier: 1.25,
  },
  openai(
    "openai-gpt-5",
    "gpt-5*",
    0.1,
    "documented",
    `${OPENAI_PRICING}; minimum from ${OPENAI_GUIDE}`,
    "2025-08",
    "Read price not in the shared facts file: check the pricing page.",
  ),
  openai(
    "openai-gpt-4-1",
    "gpt-4.1*",
    0.25,
    "documented",
    `${OPENAI_PRICING}; minimum from ${OPENAI_GUIDE}`,
    "2025-04",
    "Read price not in the shared facts file: check the pricing page.",
  ),
  openai(
    "openai-gpt-4o",
    "gpt-4o*",
    0.5,
    "documented",
    `${OPENAI_PRICING}; minimum from ${OPENAI_GUIDE}`,
    "2024-10",
    "Read price not in the shared facts file: check the pricing page.",
  ),
  openai(
    "openai-o3-mini",
    "o3-mini*",
    0.5,
    "documented",
    `${OPENAI_PRICING}; minimum from ${OPENAI_GUIDE}`,
    "2026-11",
    "$0.55 cached on $1.10 input: half price, unlike o3 and o4-mini (pricing page, read 2026-11-05).",
  ),
  openai(
    "openai-o3-o4",
    "o[34]*",
    0.25,
    "documented",
    `${OPENAI_PRICING}; minimum from ${OPENAI_GUIDE}`,
    "2025-04",
    "Read price not in the shared facts file: check the pricing page.",
  ),
  openai(
    "openai-fallback",
    "*",
    0.5,
    "documented",
    OPENAI_GUIDE,
    "2026-11",
    "Fallback for models not listed: half-price reads, the most conservative published discount.",
  ),
  openai(
    "openai-128-increments",
    "*",
    0.5,
    "legacy",
    `${OPENAI_GUIDE} (earlier version)`,
    "2024-10",
    "Hits in 128-token increments (1,024, 1,152, 1,280, …): documented earlier, later removed from the guide.",
    128,
  ),
  gemini("gemini-3", "gemini-3*", 4096, "documented", null),
  gemini("gemini-2.5", "gemini-2.5*", 2048, "documented", "Implicit caching has no cost-saving guarantee."),
  gemini("gemini-2.5-flash-earlier", "gemini-2.5-flash*", 1024, "legacy", "Minimum in an earlier version of the docs."),
  gemini(
    "gemini-2.5-pro-earlier-2048",
    "gemini-2.5-pro*",
    2048,
    "legacy",
    "An earlier version of the docs said 2,048 for 2.5 Pro.",
  ),
  gemini(
    "gemini-2.5-pro-earlier-4096",
    "gemini-2.5-pro*",
    4096,
    "legacy",
    "Another earlier version of the docs said 4,096 for 2.5 Pro.",
  ),
  gemini(
    "gemini-1.5-earlier",
    "gemini-1.5*",
    32_768,
    "legacy",
    "Explicit caching only on 1.5. The 2024 docs said 32,768; the early-2025 docs 4,096, which the fallback row gives.",
  ),
  gemini("gemini-fallback", "*", 4096, "documented", "Fallback for models not listed: the largest published minimum."),
];

/**
 * `models/gemini-2.5-flash` or `anthropic/claude-sonnet-4-5` → the bare model id; a Bedrock id
 * loses its inference-profile region and vendor (`us.anthropic.claude-…`, `amazon.nova-pro-v1:0` →
 * `nova-pro-v1:0`), so Claude on Bedrock gets the Claude rows.
 */
export function bareModelId(model: string): string {
  const slash = model.lastIndexOf("/");
  const id = slash >= 0 ? model.slice(slash + 1) : model;
  const bedrock = /^(?:(?:us|eu|apac|jp|au|ca|us-gov|global)\.)?(?:anthropic|amazon)\./i.exec(id);
  return bedrock ? id.slice(bedrock[0].length) : id;
}

export interface SelectedRule {
  readonly rule: CacheRule;
  readonly alternatives: readonly string[];
}

/** The rule for `provider` + `model`: `ruleId` if given, else the first matching `documented` row (else the first match). */
export function selectCacheRule(
  provider: CacheProvider,
  model: string,
  options: { readonly rules?: readonly CacheRule[]; readonly ruleId?: string } = {},
): SelectedRule {
  const rules = options.rules ?? CACHE_RULES;
  const id = bareModelId(model);
  const matching = rules.filter((r) => r.provider === provider && matchGlob(r.models.toLowerCase(), id.toLowerCase()));
  let rule: CacheRule | undefined;
  if (options.ruleId !== undefined) {
    rule = rules.find((r) => r.id === options.ruleId);
    if (!rule)
      throw new InvalidInputError(
        "ruleId",
        `no cache rule "${options.ruleId}" (known: ${rules.map((r) => r.id).join(", ")})`,
      );
    if (rule.provider !== provider)
      throw new InvalidInputError("ruleId", `rule "${rule.id}" is for ${rule.provider}, not ${provider}`);
  } else {
    rule = matching.find((r) => r.status === "documented") ?? matching[0];
  }
  if (!rule)
    throw new InvalidInputError(
      "model",
      `no cache rule matches ${provider} model "${model}": pass rules with a matching row (a "*" pattern matches every model)`,
    );
  const chosen = rule;
  // Alternatives are conflicting sources (observed, legacy, or the documented row when another was picked),
  // not broader documented patterns that the chosen row shadows.
  const documented = matching.find((r) => r.status === "documented");
  return {
    rule: chosen,
    alternatives: matching
      .filter((r) => r.id !== chosen.id && (r.status !== "documented" || r === documented))
      .map((r) => r.id),
  };
}
