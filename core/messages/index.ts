// Messages: the shapes every layer passes along (roles, content blocks, provider requests), their
// builders and the model-capability check.
export { UnsupportedModalityError } from "./errors.ts";
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
  OpaqueBlock,
  ProviderFields,
  Role,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  ToolResultBlock,
} from "./types.ts";
export { CONTENT_BLOCK_TYPES, MODALITIES, ROLES } from "./types.ts";
export {
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
} from "./build.ts";
export { assertMessagesSupportModelCapabilities } from "./capabilities.ts";
export type { ProviderRequest, ToolDefinition } from "./request.ts";
