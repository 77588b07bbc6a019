// Conversation (issue 4): history validation, request pipeline, response language.
export { HISTORY_ISSUE_CODES, assertValidHistory, validateHistory } from "./history.ts";
export type { HistoryIssueCode } from "./history.ts";
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
