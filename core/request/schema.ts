/**
 * zod/mini shapes of Strata's normalized messages and of the `AssemblyRequest`: the
 * JSON-able options of `assembleProviderInput`, plus tier `sections` and a `template` block.
 * Objects are strict here (a misspelt option is an error, not silently ignored).
 */
import * as z from "zod/mini";
import { ROLES } from "../messages/types.ts";

const cache = z.optional(z.strictObject({ type: z.literal("ephemeral"), ttl: z.optional(z.enum(["5m", "1h"])) }));
const providerFields = z.optional(z.record(z.string(), z.record(z.string(), z.unknown())));
const media = {
  cache,
  providerFields,
  mimeType: z.optional(z.string()),
  data: z.optional(z.string()),
  url: z.optional(z.string()),
};

export const blockSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("text"), text: z.string(), cache, providerFields }),
  z.strictObject({ type: z.literal("image"), ...media }),
  z.strictObject({ type: z.literal("audio"), ...media }),
  z.strictObject({ type: z.literal("file"), ...media, name: z.optional(z.string()) }),
  z.strictObject({ type: z.literal("document"), ...media, name: z.optional(z.string()), text: z.optional(z.string()) }),
  z.strictObject({
    type: z.literal("thinking"),
    text: z.string(),
    signature: z.optional(z.string()),
    redacted: z.optional(z.boolean()),
    cache,
    providerFields,
  }),
  z.strictObject({
    type: z.literal("tool_call"),
    id: z.string(),
    name: z.string(),
    arguments: z.unknown(),
    cache,
    providerFields,
  }),
  z.strictObject({
    type: z.literal("tool_result"),
    toolCallId: z.string(),
    name: z.string(),
    result: z.unknown(),
    isError: z.optional(z.boolean()),
    cache,
    providerFields,
  }),
]);

/** A normalized message; `content` may be a string as shorthand for one text block. */
export const messageSchema = z.strictObject({
  role: z.enum(ROLES),
  content: z.union([z.string(), z.array(blockSchema)]),
  name: z.optional(z.string()),
  metadata: z.optional(z.record(z.string(), z.unknown())),
  providerFields,
});

export const toolSchema = z.strictObject({
  name: z.string(),
  description: z.optional(z.string()),
  inputSchema: z.optional(z.unknown()),
  cache,
  providerFields,
});

export const modelSchema = z.strictObject({
  provider: z.string(),
  model: z.string(),
  capabilities: z.optional(
    z.strictObject({
      tools: z.optional(z.boolean()),
      input: z.optional(z.array(z.enum(["text", "image", "audio", "file", "document"]))),
    }),
  ),
});

const instruction = z.union([z.string(), z.strictObject({ text: z.string(), label: z.optional(z.string()) })]);
const instructions = z.optional(z.union([z.string(), z.array(instruction)]));
const count = z.number().check(z.int(), z.nonnegative());
/** A cap: assembly needs at least one token or byte (`contextBudget` says "a whole number ≥ 1" too). */
const cap = z.number().check(z.int(), z.gte(1, "must be a whole number ≥ 1"));

export const sectionSchema = z.strictObject({
  id: z.string(),
  content: z.string(),
  tier: z.enum(["core", "active", "informational"]),
  chars: z.optional(count),
});

export const tierBudgetSchema = z.strictObject({
  depth: z.optional(count),
  runtimeRole: z.optional(z.string()),
  /** null = no limit (JSON has no Infinity). */
  totalBudget: z.optional(z.nullable(z.number().check(z.nonnegative()))),
  activeBudgetFraction: z.optional(z.number().check(z.gte(0), z.lte(1))),
});

export const contextBudgetSchema = z.strictObject({
  maxInputTokens: z.optional(cap),
  maxInputBytes: z.optional(cap),
  reportOmissions: z.optional(z.boolean()),
});

export const templateSchema = z.strictObject({
  template: z.string(),
  args: z.optional(z.record(z.string(), z.unknown())),
  defaults: z.optional(z.record(z.string(), z.unknown())),
  /** Where the rendered text goes; default `systemInstructions`. */
  target: z.optional(z.enum(["systemInstructions", "developerInstructions", "input"])),
  /** ISO 8601 instant for the `system.*` namespace (the clock is injected, never read). */
  now: z.optional(z.string()),
});

export const assemblyRequestSchema = z.strictObject({
  $schema: z.optional(z.string()),
  model: modelSchema,
  input: z.union([z.string(), messageSchema, z.array(messageSchema)]),
  inputLayout: z.optional(z.enum(["legacy", "cache_aware"])),
  systemInstructions: instructions,
  developerInstructions: instructions,
  history: z.optional(z.array(messageSchema)),
  summaries: z.optional(
    z.union([
      z.string(),
      z.array(z.union([z.string(), z.strictObject({ text: z.string(), id: z.optional(z.string()) })])),
    ]),
  ),
  attachments: z.optional(
    z.array(
      z.strictObject({
        name: z.optional(z.string()),
        text: z.optional(z.string()),
        content: z.optional(z.array(blockSchema)),
        uri: z.optional(z.string()),
      }),
    ),
  ),
  resourceUris: z.optional(z.array(z.string())),
  /** JSON stand-in for a `resourceLoader`: uri → text. */
  resources: z.optional(z.record(z.string(), z.string())),
  toolResults: z.optional(
    z.array(
      z.strictObject({
        toolCallId: z.string(),
        name: z.string(),
        value: z.optional(z.unknown()),
        content: z.optional(z.array(blockSchema)),
        error: z.optional(z.union([z.string(), z.strictObject({ message: z.string(), code: z.optional(z.string()) })])),
      }),
    ),
  ),
  /** JSON stand-in for `contextProviders`: one static provider returning these blocks. */
  context: z.optional(
    z.array(
      z.strictObject({
        id: z.optional(z.string()),
        title: z.optional(z.string()),
        content: z.union([z.string(), z.array(blockSchema)]),
      }),
    ),
  ),
  skills: z.optional(
    z.array(
      z.strictObject({ name: z.string(), description: z.optional(z.string()), instructions: z.optional(z.string()) }),
    ),
  ),
  tools: z.optional(z.array(toolSchema)),
  providerOptions: z.optional(z.record(z.string(), z.unknown())),
  metadata: z.optional(z.record(z.string(), z.unknown())),
  sessionId: z.optional(z.string()),
  runId: z.optional(z.string()),
  cacheKey: z.optional(z.string()),
  /** JSON stand-in for the run-owned tail map, in insertion order. */
  tailSegments: z.optional(z.array(z.strictObject({ id: z.string(), message: messageSchema }))),
  contextBudget: z.optional(contextBudgetSchema),
  /** Tier candidates composed into a system instruction. */
  sections: z.optional(z.array(sectionSchema)),
  /** Budget config for `sections`. */
  tierBudget: z.optional(tierBudgetSchema),
  template: z.optional(templateSchema),
});
