/**
 * Strata's public API. Named re-exports only, grouped by pipeline stage;
 * types are exported separately from values.
 */

// errors
export {
  ContextBudgetError,
  HistoryValidationError,
  InvalidInputError,
  RequestFormatError,
  StrataError,
  TemplateError,
  UnsupportedModalityError,
} from "./errors.ts";
export type { ContextBudgetErrorDetails, HistoryIssue, RequestFormatIssue } from "./errors.ts";

// messages: the shapes every stage passes along
export {
  CONTENT_BLOCK_TYPES,
  MODALITIES,
  ROLES,
  assertMessagesSupportModelCapabilities,
  assistantMessage,
  blockModality,
  isContentBlockType,
  isRole,
  isTextBlock,
  isToolCallBlock,
  isToolResultBlock,
  messageText,
  systemMessage,
  textBlock,
  textMessage,
  toolCallBlock,
  toolCallsOf,
  toolResultBlock,
  toolResultMessage,
  toolResultsOf,
  userMessage,
} from "./messages/index.ts";
export type {
  AudioBlock,
  CacheMarker,
  ContentBlock,
  ContentBlockType,
  DocumentBlock,
  FileBlock,
  ImageBlock,
  JsonValue,
  Message,
  Modality,
  ModelCapabilities,
  ModelRef,
  Role,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  ToolResultBlock,
  ProviderRequest,
  ToolDefinition,
} from "./messages/index.ts";

// formats: JSON text in, with positions in errors
export { DEFAULT_MAX_JSON_DEPTH, findJsonSyntaxError, lineAndColumn, parseJson } from "./formats/json.ts";
export type { JsonParseResult, JsonSyntaxIssue } from "./formats/json.ts";

// ── issue 10: input, prompt, assembly, context budget, {{name}} templates ──
// (end issue 10)

// ── issue 3: tiered budget composer, guidance, contributions, fingerprints ──
// (end issue 3)

// ── issue 4: Jinja templates, prompt context, history validation, request pipeline ──
// (end issue 4)

// ── issue 5: wire formats, cache analysis, cache simulation, inspect ──
// (end issue 5)
