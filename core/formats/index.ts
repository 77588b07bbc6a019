// Provider wire formats: detect and read OpenAI Chat, OpenAI Responses, Anthropic Messages, Gemini
// and AWS Bedrock Converse request bodies into one normalized request, and write them back.
export { RequestFormatError } from "./errors.ts";
export type { RequestFormatIssue } from "./errors.ts";
export { DEFAULT_MAX_REQUEST_LENGTH, parseRequestValue, parseWireRequest } from "./parse.ts";
export type { ParseRequestOptions, WireRequest } from "./parse.ts";
export { DEFAULT_MAX_STRING_LENGTH, checkJsonValue } from "./guard.ts";
export type { ValueLimits } from "./guard.ts";
export { WIRE_FORMATS } from "./types.ts";
export type { NormalizedRequest, WireFormat } from "./types.ts";
export { toAnthropic } from "./anthropic.ts";
export type { ToAnthropicOptions } from "./anthropic.ts";
export { toOpenAIChat } from "./openai-chat.ts";
export { toOpenAIResponses } from "./openai-responses.ts";
export { toGemini } from "./gemini.ts";
export type { ToGeminiOptions } from "./gemini.ts";

// Cross-format export: warnings, settings translation, system placement
export { EXPORT_WARNING_CODES, sourceFormatOf } from "./export-context.ts";
export type { ExportOptions, ExportResult, ExportWarning, ExportWarningCode } from "./export-context.ts";
export { EFFORT_BUDGETS, REQUEST_FIELDS } from "./settings.ts";
export { DEFAULT_SYSTEM_MARKER } from "./system-placement.ts";
export type { SystemMarker, SystemPlacementOptions } from "./system-placement.ts";
export { toBedrock } from "./bedrock.ts";

// Model facts: windows, output limits, cache minimums, prices, export defaults (dated and sourced)
export {
  ANTHROPIC_EXPORT_MAX_TOKENS,
  findModel,
  MODEL_PROVIDERS,
  MODEL_SOURCES,
  MODEL_TABLE,
  MODEL_TABLE_DATE,
  normalizeModelId,
} from "./models.ts";
export type {
  FindModelResult,
  LongContextPrices,
  ModelPrices,
  ModelProvider,
  ModelRow,
  ModelSource,
  ModelSourceId,
  ModelStatus,
} from "./models.ts";

// JSON text with positions, shared by every reader
export { DEFAULT_MAX_JSON_DEPTH, findJsonSyntaxError, lineAndColumn, parseJson } from "../util/json.ts";
export type { JsonParseResult, JsonSyntaxIssue } from "../util/json.ts";
export { jsonPathAt } from "../util/json-path.ts";
