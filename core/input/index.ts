export { createDefaultInputBuilder } from "./input-builder.ts";
export { buildInputGroups, inputMessages } from "./groups.ts";
export type { InputGroups } from "./groups.ts";
export { LAYOUT_GROUP_ORDER, flattenInputGroups, resolveInputLayout } from "./layouts.ts";
export { EMPTY_TOOL_RESULT_TEXT, toolResultInputMessage } from "./shapes.ts";
export { DEFAULT_INPUT_LAYOUT, INPUT_ASSEMBLY_LAYOUTS } from "./types.ts";
export type {
  AgentInput,
  DefaultInputBuildContext,
  DefaultInputBuilder,
  InputAssemblyLayout,
  InputAttachment,
  InputBuildContext,
  InputBuilder,
  InstructionsInput,
  LoadedResource,
  PromptInstruction,
  ResourceLoader,
  SummaryInput,
  ToolResultError,
  ToolResultInput,
} from "./types.ts";
