// Conversations: history validation, the request pipeline, response language and the namespaced
// prompt arguments (system / conversation / message / assistant) templates render with.
export { HistoryValidationError } from "./errors.ts";
export type { HistoryIssue } from "./errors.ts";
export { HISTORY_ISSUE_CODES, assertValidHistory, validateHistory } from "./history.ts";
export type { HistoryIssueCode } from "./history.ts";
export { PROVIDER_HISTORY_ISSUE_CODES, validateProviderHistory } from "./provider-history.ts";
export { CLIENT_LANGUAGE_KEY, MESSAGE_LANGUAGE_KEY, messageLanguage, resolveResponseLanguage } from "./language.ts";
export {
  REQUEST_PIPELINE_STAGES,
  buildUserMessage,
  preparePromptArgumentsForResponse,
  runRequestPipeline,
  snapshotHistory,
} from "./pipeline.ts";
export type {
  PromptArgumentSources,
  RequestPipelineInput,
  RequestPipelineResult,
  RequestPipelineStage,
  UserTextPacket,
} from "./pipeline.ts";
export { PROMPT_CONTEXT_NAMESPACES, buildPromptContext } from "./prompt-context.ts";
export type {
  AssistantArguments,
  AssistantInfo,
  ConversationArguments,
  ConversationInfo,
  MessageArguments,
  PromptContext,
  PromptContextInput,
} from "./prompt-context.ts";
export type { SystemArguments } from "./system-clock.ts";
