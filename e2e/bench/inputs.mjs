// Deterministic bench inputs. Every generator takes a seed and returns the same value in
// every run and on every machine: a bench that measures different bytes each time measures noise.

/** sfc32: a small, fast, well-distributed 32-bit PRNG (PractRand-clean); `seed` fixes the stream. */
export function createRandom(seed) {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

const WORDS = (
  "the a of to and in is it for on that with as this be are by from at or an was we can you " +
  "prompt cache token budget model tool call result history summary context section layout " +
  "assistant user system message request response stream provider latency window prefix " +
  "deploy schema field index query table column migration function return value error retry " +
  "timeout config build release branch commit review patch test suite runtime worker edge"
).split(" ");
// A few non-ASCII words so UTF-8 byte counts differ from UTF-16 lengths, as in real chats.
const RARE = ["café", "naïve", "Grüße", "東京", "データ", "🙂", "👍🏽", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "Привет", "مرحبا"];

/** About `chars` UTF-16 code units of sentence-like text. */
export function words(rnd, chars) {
  const out = [];
  let length = 0;
  let sentence = 0;
  while (length < chars) {
    let w = rnd.next() < 0.02 ? rnd.pick(RARE) : rnd.pick(WORDS);
    if (sentence === 0) w = w[0].toUpperCase() + w.slice(1);
    sentence++;
    if (sentence > 8 && rnd.next() < 0.2) {
      w += rnd.next() < 0.1 ? ".\n" : ".";
      sentence = 0;
    }
    out.push(w);
    length += w.length + 1;
  }
  return out.join(" ");
}

const TOOL_NAMES = ["search_docs", "read_file", "run_tests", "get_weather", "query_db"];

/**
 * A conversation of exactly `count` messages, about `bytesPerMessage` bytes of JSON each:
 * user and assistant turns, assistant tool calls answered by tool results (sometimes
 * two in parallel), the way agent histories look. Every tool exchange is complete, so the
 * history is valid (spec 003) and eviction must keep pairs together.
 */
export function generateHistory(count, { seed = 1, bytesPerMessage = 500 } = {}) {
  const rnd = createRandom(seed);
  const textChars = () => rnd.int(Math.floor(bytesPerMessage * 0.55), Math.floor(bytesPerMessage * 1.25));
  const messages = [];
  let callId = 0;
  while (messages.length < count) {
    const left = count - messages.length;
    messages.push({ role: "user", content: [{ type: "text", text: words(rnd, textChars()) }] });
    if (messages.length === count) break;
    const parallel = rnd.next() < 0.25 ? 2 : 1;
    if (left >= 2 + 1 + parallel && rnd.next() < 0.45) {
      const calls = [];
      for (let i = 0; i < parallel; i++) {
        calls.push({
          type: "tool_call",
          id: `call_${(callId++).toString(36).padStart(6, "0")}`,
          name: rnd.pick(TOOL_NAMES),
          arguments: { query: words(rnd, 40), limit: rnd.int(1, 20), exact: rnd.next() < 0.5 },
        });
      }
      messages.push({ role: "assistant", content: [{ type: "text", text: words(rnd, 60) }, ...calls] });
      for (const call of calls) {
        messages.push({
          role: "tool",
          content: [
            {
              type: "tool_result",
              toolCallId: call.id,
              name: call.name,
              result: { ok: true, text: words(rnd, textChars()) },
            },
          ],
        });
      }
    }
    messages.push({ role: "assistant", content: [{ type: "text", text: words(rnd, textChars()) }] });
  }
  return messages.slice(0, count);
}

/** Host tools with JSON Schemas, as `assembleProviderInput({ tools })` takes them. */
export function generateTools() {
  return TOOL_NAMES.map((name) => ({
    name,
    description: `${name.replace("_", " ")}: returns matching rows as JSON.`,
    inputSchema: {
      type: "object",
      properties: { query: { type: "string" }, limit: { type: "integer" }, exact: { type: "boolean" } },
      required: ["query"],
    },
  }));
}

export const BENCH_MODEL = { provider: "openai", model: "gpt-bench", capabilities: { tools: true } };
export const SYSTEM_INSTRUCTIONS =
  "You are a careful assistant. Answer from the tool results; say when you are unsure.";
export const CURRENT_INPUT = "Summarise what we found so far and propose the next step.";

/** Tier sections for the composer: ids unique, tiers mixed like a real prompt (few core, many active/informational). */
export function generateSections(count, { seed = 3 } = {}) {
  const rnd = createRandom(seed);
  const sections = [];
  for (let i = 0; i < count; i++) {
    const r = rnd.next();
    const tier = i < 4 || r < 0.02 ? "core" : r < 0.6 ? "active" : "informational";
    const content = words(rnd, rnd.int(60, 260));
    sections.push({ id: `s${i}`, tier, content, chars: content.length });
  }
  return sections;
}

/** An OpenAI Chat Completions request of about `targetBytes` bytes, and its previous turn. */
export function generateOpenAIChatTurns(targetBytes, { seed = 5 } = {}) {
  const perMessage = 500;
  const count = Math.max(4, Math.round(targetBytes / (perMessage + 60)));
  const history = generateHistory(count, { seed, bytesPerMessage: perMessage });
  const toWire = (m) => {
    const text = m.content
      .filter((b) => b.type === "text")
      .map((b) => b.text)
      .join("\n");
    if (m.role === "tool") {
      const r = m.content[0];
      return { role: "tool", tool_call_id: r.toolCallId, content: JSON.stringify(r.result) };
    }
    const calls = m.content.filter((b) => b.type === "tool_call");
    if (calls.length > 0) {
      return {
        role: "assistant",
        content: text,
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: JSON.stringify(c.arguments) },
        })),
      };
    }
    return { role: m.role, content: text };
  };
  const tools = generateTools().map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
  const wire = [{ role: "system", content: SYSTEM_INSTRUCTIONS }, ...history.map(toWire)];
  // The previous turn ends before the last user message: `next` appends to it (a cache hit).
  let cut = wire.length - 1;
  while (cut > 1 && wire[cut].role !== "user") cut--;
  const request = (messages) => JSON.stringify({ model: "gpt-4o", messages, tools, temperature: 0 }, null, 2);
  return { current: request(wire), previous: request(wire.slice(0, cut)), messages: wire.length };
}

/** A ChatML-style chat template of the kind real models ship (loops, conditions, filters, tool calls). */
export const CHAT_TEMPLATE = `{%- if tools %}
{{- '<|im_start|>system\\n' }}
{%- if messages[0].role == 'system' %}{{- messages[0].content + '\\n\\n' }}{%- endif %}
{{- "# Tools\\n\\nYou may call one or more functions. Signatures:\\n<tools>" }}
{%- for tool in tools %}{{- "\\n" }}{{- tool | tojson }}{%- endfor %}
{{- "\\n</tools><|im_end|>\\n" }}
{%- elif messages[0].role == 'system' %}
{{- '<|im_start|>system\\n' + messages[0].content + '<|im_end|>\\n' }}
{%- endif %}
{%- for message in messages %}
{%- if message.role == "user" or (message.role == "system" and not loop.first) %}
{{- '<|im_start|>' + message.role + '\\n' + message.content | trim + '<|im_end|>\\n' }}
{%- elif message.role == "assistant" %}
{{- '<|im_start|>assistant' }}
{%- if message.content %}{{- '\\n' + message.content | trim }}{%- endif %}
{%- for tool_call in message.tool_calls or [] %}
{{- '\\n<tool_call>\\n{"name": "' + tool_call.name + '", "arguments": ' + tool_call.arguments | tojson + '}\\n</tool_call>' }}
{%- endfor %}
{{- '<|im_end|>\\n' }}
{%- elif message.role == "tool" %}
{{- '<|im_start|>user\\n<tool_response>\\n' + message.content + '\\n</tool_response><|im_end|>\\n' }}
{%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}`;

/** Arguments for CHAT_TEMPLATE: a short conversation with one tool exchange (~3 KB of output). */
export function generateTemplateArgs({ seed = 7 } = {}) {
  const rnd = createRandom(seed);
  const messages = [{ role: "system", content: SYSTEM_INSTRUCTIONS }];
  for (let i = 0; i < 4; i++) {
    messages.push({ role: "user", content: words(rnd, 200) });
    if (i === 2) {
      messages.push({
        role: "assistant",
        content: "",
        tool_calls: [{ name: "search_docs", arguments: { query: words(rnd, 30), limit: 5 } }],
      });
      messages.push({ role: "tool", content: words(rnd, 300) });
    }
    messages.push({ role: "assistant", content: words(rnd, 300) });
  }
  const tools = generateTools().map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
  return { messages, tools, add_generation_prompt: true };
}
