export { composePrompt, createDefaultPromptBuilder } from "./prompt-builder.ts";
export {
  contextBlockMessage,
  needsTextToolDeclarations,
  skillBodyMessage,
  skillCatalogRow,
  skillMessage,
  toolDeclarationsText,
} from "./shapes.ts";
export type { PromptSource, SourcedMessage } from "./sources.ts";
export type {
  ContextBlock,
  ContextProvider,
  ContextResolutionContext,
  DefaultPromptBuilder,
  PromptBuildRequest,
  PromptBuilder,
  Skill,
  TailSegments,
} from "./types.ts";
