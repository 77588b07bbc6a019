/**
 * fast-check generators of wire request bodies, one per format, reaching every branch of the
 * formats' zod schemas (each role, part, block and item type; optional, nullable and union
 * members; extra fields), and `mutate`, which breaks a body at random places the ways real input
 * breaks (wrong types, unknown roles, extra and missing keys, nulls, junk, odd prototypes,
 * symbol and `__proto__` keys, holes, cycles).
 */
import fc from "fast-check";
import type { WireFormat } from "../types.ts";

type Body = Record<string, unknown>;

const text = fc.string({ maxLength: 8, unit: fc.constantFrom("a", "b", " ", "é", "😀", "\n", "{", '"') });
const id = fc.string({ maxLength: 5, unit: fc.constantFrom("a", "b", "1", "_") });
const json = fc.jsonValue({ maxDepth: 2 });
const record = fc.dictionary(fc.constantFrom("type", "properties", "q", "a", "required"), json, { maxKeys: 3 });
/** Unknown fields a body may carry beside the known ones (they pass through the loose schemas). */
const extras = fc.dictionary(fc.constantFrom("x_extra", "metadata", "strict", "temperature"), json, {
  maxKeys: 1,
});

/** An object of the defined entries (undefined means absent), then the extras. */
const obj = (fields: Record<string, fc.Arbitrary<unknown>>, withExtras = true): fc.Arbitrary<Body> =>
  fc.tuple(fc.record(fields), withExtras ? extras : fc.constant({})).map(([known, more]) => {
    const out: Body = {};
    for (const [k, v] of Object.entries(known)) if (v !== undefined) out[k] = v;
    return { ...out, ...more };
  });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });
const list = <T>(a: fc.Arbitrary<T>, maxLength = 3) => fc.array(a, { maxLength });
const lit = <T extends string>(...values: T[]) => fc.constantFrom(...values);
/** Tool-call arguments: compact JSON (parsed), spaced JSON and non-JSON (kept as text). */
const args = fc.oneof(
  record.map((r) => JSON.stringify(r)),
  record.map((r) => JSON.stringify(r, null, 1)),
  fc.constantFrom("", "[1,2]", "{", "42", "null", ' {"a":1}'),
);
const maxTokens = fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.constant(null));

// OpenAI Chat Completions
const chatText = obj({ type: fc.constant("text"), text, cache_control: opt(obj({ type: fc.constant("ephemeral") })) });
const chatRefusal = obj({ type: fc.constant("refusal"), refusal: text });
const chatPart = fc.oneof(
  chatText,
  chatRefusal,
  obj({ type: fc.constant("image_url"), image_url: obj({ url: text, detail: opt(lit("auto", "low")) }) }),
  obj({ type: fc.constant("input_audio"), input_audio: obj({ data: text, format: lit("wav", "mp3") }) }),
  obj({
    type: fc.constant("file"),
    file: obj({ file_id: opt(id), file_data: opt(text), filename: opt(text) }),
  }),
);
const chatTextContent = fc.oneof(text, list(chatText));
const toolCall = obj({
  id,
  type: fc.constant("function"),
  function: obj({ name: id, arguments: args }),
});
const chatMessage = fc.oneof(
  obj({ role: lit("system", "developer"), content: chatTextContent, name: opt(id) }),
  obj({
    role: fc.constant("user"),
    content: fc.oneof(text, list(chatPart)),
    name: opt(id),
    images: opt(list(text, 2)),
  }),
  obj({
    role: fc.constant("assistant"),
    content: opt(fc.oneof(fc.constant(null), text, list(fc.oneof(chatText, chatRefusal)))),
    name: opt(id),
    tool_calls: opt(list(toolCall, 2)),
    function_call: opt(obj({ name: id, arguments: args })),
  }),
  obj({ role: fc.constant("tool"), content: chatTextContent, tool_call_id: id }),
  obj({ role: fc.constant("function"), name: id, content: fc.oneof(text, fc.constant(null)) }),
);
const chatTool = fc.oneof(
  obj({
    type: fc.constant("function"),
    function: obj({ name: id, description: opt(text), parameters: opt(record) }),
  }),
  obj({ type: fc.constant("custom"), custom: obj({ name: id }) }),
);
export const chatBodyArb: fc.Arbitrary<Body> = obj({
  model: lit("gpt-4o", "o3-mini", "llama3"),
  messages: list(chatMessage, 6),
  tools: opt(list(chatTool, 2)),
  prompt_cache_key: opt(id),
  max_tokens: opt(maxTokens),
  max_completion_tokens: opt(maxTokens),
});

// Anthropic Messages
const cache = opt(obj({ type: fc.constant("ephemeral"), ttl: opt(lit("5m", "1h")) }, false));
const anthropicText = obj({ type: fc.constant("text"), text, cache_control: cache });
const mediaSource = fc.oneof(
  obj({ type: fc.constant("base64"), media_type: lit("image/png", "application/pdf"), data: text }),
  obj({ type: fc.constant("url"), url: text }),
  obj({ type: fc.constant("file"), file_id: id }),
  obj({ type: fc.constant("text"), media_type: fc.constant("text/plain"), data: text }),
  obj({ type: fc.constant("content"), content: fc.oneof(text, list(anthropicText, 2)) }),
);
const anthropicBlock = fc.oneof(
  { arbitrary: anthropicText, weight: 3 },
  obj({ type: fc.constant("image"), source: mediaSource, cache_control: cache }),
  obj({ type: fc.constant("document"), source: mediaSource, title: opt(text), cache_control: cache }),
  obj({ type: fc.constant("tool_use"), id, name: id, input: record, cache_control: cache }),
  obj({
    type: fc.constant("tool_result"),
    tool_use_id: id,
    content: opt(fc.oneof(text, list(anthropicText, 2))),
    is_error: opt(fc.boolean()),
    cache_control: cache,
  }),
  obj({ type: fc.constant("thinking"), thinking: text, signature: opt(text), cache_control: cache }),
  obj({ type: fc.constant("redacted_thinking"), data: text, cache_control: cache }),
  obj({ type: fc.constant("server_tool_use"), id, name: id, input: record }),
  obj({ type: fc.constant("web_search_tool_result"), tool_use_id: id, content: list(json, 1) }),
  obj({ type: fc.constant("compaction"), content: opt(text) }),
  obj({ type: lit("brand_new_block"), payload: json }),
);
export const anthropicBodyArb: fc.Arbitrary<Body> = obj({
  model: lit("claude-sonnet-4-5", "claude-3-haiku"),
  max_tokens: opt(fc.integer({ min: 1, max: 64_000 })),
  system: opt(fc.oneof(text, list(anthropicText, 2))),
  messages: list(obj({ role: lit("user", "assistant"), content: fc.oneof(text, list(anthropicBlock, 4)) }), 5),
  tools: opt(
    list(
      obj({
        name: id,
        description: opt(text),
        input_schema: opt(record),
        cache_control: cache,
        type: opt(lit("custom", "web_search_20250305")),
      }),
      2,
    ),
  ),
  cache_control: cache,
});

// OpenAI Responses
const responsesPart = fc.oneof(
  obj({ type: lit("input_text", "output_text"), text }),
  obj({ type: fc.constant("refusal"), refusal: text }),
  obj({ type: fc.constant("input_image"), image_url: opt(text) }),
  obj({ type: fc.constant("input_file"), file_data: opt(text), filename: opt(text) }),
  obj({ type: fc.constant("input_audio"), input_audio: obj({ data: text, format: lit("wav") }) }),
);
const responsesItem = fc.oneof(
  {
    arbitrary: obj({
      type: opt(fc.constant("message")),
      role: lit("user", "assistant", "system", "developer"),
      content: fc.oneof(text, list(responsesPart)),
    }),
    weight: 3,
  },
  obj({ type: fc.constant("function_call"), call_id: id, name: id, arguments: args }),
  obj({
    type: fc.constant("function_call_output"),
    call_id: id,
    output: fc.oneof(text, list(obj({ type: fc.constant("input_text"), text }), 2)),
  }),
  obj({
    type: fc.constant("reasoning"),
    summary: list(obj({ type: fc.constant("summary_text"), text }), 2),
    encrypted_content: opt(fc.oneof(text, fc.constant(null))),
  }),
  obj({ id }, false),
  obj({ type: fc.constant("item_reference"), id }),
  obj({ type: fc.constant("web_search_call"), id, status: opt(text) }),
  obj({ type: fc.constant("custom_tool_call"), call_id: id, name: id, input: text }),
  obj({ type: fc.constant("mystery_item"), data: json }),
);
export const responsesBodyArb: fc.Arbitrary<Body> = obj({
  model: opt(lit("gpt-4.1", "o4-mini")),
  instructions: opt(text),
  input: opt(fc.oneof(text, list(responsesItem, 5))),
  prompt: opt(fc.oneof(fc.constant(null), obj({ id, variables: opt(record) }, false))),
  tools: opt(
    list(
      fc.oneof(
        obj({
          type: fc.constant("function"),
          name: id,
          description: opt(fc.oneof(text, fc.constant(null))),
          parameters: opt(fc.oneof(record, fc.constant(null))),
        }),
        obj({ type: lit("web_search", "file_search"), name: opt(id) }),
      ),
      2,
    ),
  ),
  prompt_cache_key: opt(id),
  max_output_tokens: opt(fc.integer({ min: 1, max: 9999 })),
});

// Gemini generateContent
const geminiPart = fc.oneof(
  { arbitrary: obj({ text }, false), weight: 3 },
  obj({ text, thought: fc.constant(true), thoughtSignature: opt(text) }, false),
  obj({ inlineData: obj({ mimeType: lit("image/png", "audio/wav"), data: text }, false) }, false),
  obj({ inline_data: obj({ mime_type: lit("image/png", "application/pdf"), data: text }, false) }, false),
  obj({ fileData: obj({ mimeType: opt(lit("video/mp4")), fileUri: text }, false) }, false),
  obj({ functionCall: obj({ name: id, args: opt(record), id: opt(id) }, false) }, false),
  obj({ functionResponse: obj({ name: id, response: record, id: opt(id) }, false) }, false),
  obj({ executableCode: obj({ language: fc.constant("PYTHON"), code: text }, false) }, false),
  obj({ somethingNew: json }, false),
);
const geminiContent = obj({ role: opt(lit("user", "model", "function", "tool")), parts: list(geminiPart, 3) });
const geminiSystem = obj({ role: opt(text), parts: list(obj({ text }, false), 2) });
export const geminiBodyArb: fc.Arbitrary<Body> = obj({
  model: opt(lit("gemini-2.5-pro", "models/gemini-2.0-flash")),
  contents: fc.oneof({ arbitrary: list(geminiContent, 4), weight: 4 }, text),
  systemInstruction: opt(geminiSystem),
  tools: opt(
    list(
      fc.oneof(
        obj({ functionDeclarations: list(obj({ name: id, description: opt(text), parameters: opt(record) }), 2) }),
        obj({ function_declarations: list(obj({ name: id }), 1) }),
        obj({ googleSearch: fc.constant({}) }),
      ),
      2,
    ),
  ),
  generationConfig: opt(obj({ temperature: fc.constantFrom(0, 0.5), maxOutputTokens: opt(fc.nat(9999)) })),
});

// Bedrock Converse
const bytes = obj({ bytes: text }, false);
const bedrockBlock = fc.oneof(
  { arbitrary: obj({ text }, false), weight: 3 },
  obj({ image: obj({ format: lit("png", "jpeg"), source: bytes }, false) }, false),
  obj({ document: obj({ format: lit("pdf", "txt"), name: text, source: bytes }, false) }, false),
  obj({ toolUse: obj({ toolUseId: id, name: id, input: record }, false) }, false),
  obj(
    {
      toolResult: obj(
        { toolUseId: id, content: list(obj({ text }, false), 2), status: opt(lit("success", "error")) },
        false,
      ),
    },
    false,
  ),
  obj({ cachePoint: obj({ type: fc.constant("default"), ttl: opt(lit("5m", "1h")) }, false) }, false),
  obj({ reasoningContent: obj({ reasoningText: obj({ text, signature: opt(text) }, false) }, false) }, false),
);
export const bedrockBodyArb: fc.Arbitrary<Body> = obj({
  modelId: opt(lit("anthropic.claude-3-5-sonnet-20240620-v1:0", "amazon.nova-pro-v1:0")),
  messages: list(obj({ role: lit("user", "assistant"), content: list(bedrockBlock, 3) }, false), 4),
  system: opt(
    list(fc.oneof(obj({ text }, false), obj({ cachePoint: obj({ type: fc.constant("default") }, false) }, false)), 2),
  ),
  toolConfig: opt(
    obj({
      tools: opt(
        list(
          fc.oneof(
            obj(
              { toolSpec: obj({ name: id, description: opt(text), inputSchema: obj({ json: record }, false) }, false) },
              false,
            ),
            obj({ cachePoint: obj({ type: fc.constant("default") }, false) }, false),
          ),
          2,
        ),
      ),
    }),
  ),
  inferenceConfig: opt(obj({ maxTokens: fc.integer({ min: 1, max: 4096 }) }, false)),
});

export const wireBodyArbs: Readonly<Record<WireFormat, fc.Arbitrary<Body>>> = {
  "openai-chat": chatBodyArb,
  "openai-responses": responsesBodyArb,
  anthropic: anthropicBodyArb,
  "bedrock-converse": bedrockBodyArb,
  gemini: geminiBodyArb,
};

// Mutations
class Foreign {
  constructor(public readonly v = 1) {}
}
/** Values that do not belong where they land: each wrong for some field of some schema. */
const junkArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    undefined,
    true,
    0,
    1,
    -1,
    1.5,
    2 ** 53,
    1e21,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    "",
    "x",
    "\ud800",
    "user",
    "text",
  ),
  fc
    .constantFrom(
      "[]",
      "[1]",
      "{}",
      '{"type":"text"}',
      '{"type":"text","text":"t"}',
      '{"role":"user","content":"c"}',
      '["a"]',
    )
    .map((s) => JSON.parse(s) as unknown),
  fc
    .constantFrom("date", "fn", "foreign", "big")
    .map((k) => (k === "date" ? new Date(0) : k === "fn" ? () => 1 : k === "foreign" ? new Foreign() : 10n)),
  text,
  record,
);

/** Field names of every format's schemas (and a stranger): the keys a mutation adds or breaks. */
const FIELD_NAMES = [
  ...["model", "messages", "tools", "role", "content", "name", "images", "tool_calls", "function_call"],
  ...["tool_call_id", "id", "type", "function", "arguments", "parameters", "description", "custom", "text"],
  ...["image_url", "url", "detail", "input_audio", "data", "format", "file", "file_id", "file_data", "filename"],
  ...["refusal", "prompt_cache_key", "max_tokens", "max_completion_tokens", "system", "cache_control", "ttl"],
  ...["source", "media_type", "title", "input", "tool_use_id", "is_error", "thinking", "signature", "input_schema"],
  ...["contents", "parts", "systemInstruction", "system_instruction", "modelId", "toolConfig", "instructions"],
  ...["prompt", "call_id", "output", "summary", "encrypted_content", "inlineData", "toolUse", "cachePoint"],
  "stranger",
  "\ud800k",
];
/** Discriminator values of every format (and unknown ones): what a role or type may be switched to. */
const TAGS = [
  ...["system", "developer", "user", "assistant", "tool", "function", "model", "text", "image_url"],
  ...["input_audio", "file", "refusal", "custom", "image", "document", "tool_use", "tool_result", "thinking"],
  ...["redacted_thinking", "base64", "url", "content", "ephemeral", "message", "function_call"],
  ...["function_call_output", "reasoning", "input_text", "output_text", "input_image", "input_file"],
  ...["search_result", "server_tool_use", "item_reference", "web_search_call", "5m", "1h", "2h", "nobody"],
];

export interface Mutation {
  readonly at: number;
  readonly pick: number;
  readonly kind: number;
  readonly junk: unknown;
  readonly key: string;
  readonly tag: string;
}
export const MUTATION_KINDS = 14;
export const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  pick: fc.nat(),
  kind: fc.nat(MUTATION_KINDS - 1),
  junk: junkArb,
  key: fc.constantFrom(...FIELD_NAMES),
  tag: fc.constantFrom(...TAGS),
});

/** Every object and array in `root`, each with its parent and the key it is under (cycle-safe). */
function containers(root: unknown): { node: object; parent: object | undefined; key: PropertyKey | undefined }[] {
  const out: { node: object; parent: object | undefined; key: PropertyKey | undefined }[] = [];
  const seen = new Set<object>();
  const walk = (v: unknown, parent: object | undefined, key: PropertyKey | undefined) => {
    if (typeof v !== "object" || v === null || seen.has(v)) return;
    seen.add(v);
    out.push({ node: v, parent, key });
    for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], v, k);
  };
  walk(root, undefined, undefined);
  return out;
}

const set = (o: object, k: PropertyKey, v: unknown) => {
  (o as Record<PropertyKey, unknown>)[k] = v;
};

/** `body` (a JSON-plain value, copied first) with the mutations applied in turn. */
export function mutate(body: unknown, mutations: readonly Mutation[]): unknown {
  const root = { value: JSON.parse(JSON.stringify(body)) as unknown };
  for (const m of mutations) {
    const all = containers(root.value);
    if (all.length === 0) {
      root.value = m.junk;
      continue;
    }
    const { node, parent, key } = all[m.at % all.length]!;
    const keys = Object.keys(node);
    const child = keys.length > 0 ? keys[m.pick % keys.length]! : undefined;
    const replaceNode = (v: unknown) => (parent ? set(parent, key!, v) : (root.value = v));
    switch (m.kind) {
      case 0: // a wrong value
        if (child !== undefined) set(node, child, m.junk);
        else replaceNode(m.junk);
        break;
      case 1: // a missing field (or a hole in an array)
        if (child !== undefined) delete (node as Record<string, unknown>)[child];
        break;
      case 2: // present but undefined
        if (child !== undefined) set(node, child, undefined);
        break;
      case 3: // an extra (or known but misplaced) field
        if (!Array.isArray(node)) set(node, m.key, m.junk);
        break;
      case 4: // another role or type
        if (!Array.isArray(node)) set(node, "role" in node ? "role" : "type", m.tag);
        break;
      case 5: // a null prototype
        replaceNode(Object.assign(Object.create(null) as object, node));
        break;
      case 6: // a class instance with the same fields
        replaceNode(Object.assign(new Foreign(), node));
        break;
      case 7: // an own "__proto__" key, as JSON.parse makes
        if (!Array.isArray(node))
          Object.defineProperty(node, "__proto__", {
            value: m.junk,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        break;
      case 8: // an enumerable symbol key
        set(node, Symbol("s"), m.junk);
        break;
      case 9: // a non-enumerable symbol key
        Object.defineProperty(node, Symbol("h"), { value: 1, enumerable: false });
        break;
      case 10: // wrapped in an array
        if (child !== undefined) set(node, child, [(node as Record<string, unknown>)[child]]);
        break;
      case 11: // a cycle
        if (child !== undefined && parent) set(node, child, parent);
        break;
      case 12: // a number at the edges
        if (child !== undefined) set(node, child, [0, -0, 0.5, 1, 2 ** 53 - 1, 2 ** 53, -5][m.pick % 7]);
        break;
      case 13: // a string where a structure was, or the reverse
        if (child !== undefined)
          set(node, child, typeof (node as Record<string, unknown>)[child] === "string" ? { text: m.tag } : m.tag);
        break;
    }
  }
  return root.value;
}
