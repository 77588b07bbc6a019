/**
 * The members a Converse block may hold (a block is `{ member: … }`, without `type`): the unions
 * `ContentBlock` and `SystemContentBlock` of aws-sdk-js-v3 client-bedrock-runtime (read 2026-12-01).
 * Shared by the reader and format detection.
 */
export const BEDROCK_MESSAGE_MEMBERS: readonly string[] = [
  "text",
  "image",
  "document",
  "video",
  "audio",
  "toolUse",
  "toolResult",
  "guardContent",
  "cachePoint",
  "reasoningContent",
  "citationsContent",
  "searchResult",
];
export const BEDROCK_SYSTEM_MEMBERS: readonly string[] = ["text", "guardContent", "cachePoint"];
