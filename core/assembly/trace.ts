import type { ContextBudgetOmission, ContextBudgetReport } from "./context-types.ts";
import type { Measure } from "./context-measure.ts";
import type { InputAssemblyLayout } from "./types.ts";
import type { ProviderRequest, Role } from "../messages/index.ts";
import type { PromptSource, SourcedMessage } from "./sources.ts";
import { definedFields } from "../util/plain-object.ts";

/** One output message: where it came from and how big it is (see `Measure` for what is counted). */
export interface AssemblyTraceRow extends Measure {
  readonly index: number;
  readonly role: Role;
  readonly source: PromptSource;
}

/** Where every message of a request came from, and what was left out and why. */
export interface AssemblyTrace {
  readonly layout: InputAssemblyLayout;
  readonly rows: readonly AssemblyTraceRow[];
  /** Native tool schemas sent in `request.tools` (models with `capabilities.tools === true`); counted by budgets. */
  readonly toolSchemas?: Measure;
  /** Sum of `rows` and `toolSchemas`. */
  readonly totals: Measure;
  /** Every budget omission, in eviction order (empty without a budget). */
  readonly omissions: readonly ContextBudgetOmission[];
  /** The budget report, when a `contextBudget` was given (whether or not `reportOmissions` is set). */
  readonly budget?: ContextBudgetReport;
}

export interface ExplainedProviderInput {
  readonly request: ProviderRequest;
  readonly trace: AssemblyTrace;
}

export function buildTrace(
  layout: InputAssemblyLayout,
  items: readonly SourcedMessage[],
  measures: readonly Measure[],
  toolSchemas: Measure | undefined,
  report: ContextBudgetReport | undefined,
): AssemblyTrace {
  let chars = toolSchemas?.chars ?? 0;
  let bytes = toolSchemas?.bytes ?? 0;
  let tokens = toolSchemas?.tokens ?? 0;
  const rows = items.map((item, index): AssemblyTraceRow => {
    const m = measures[index]!;
    chars += m.chars;
    bytes += m.bytes;
    tokens += m.tokens;
    return { index, role: item.message.role, source: item.source, chars: m.chars, bytes: m.bytes, tokens: m.tokens };
  });
  return {
    layout,
    rows,
    ...definedFields({ toolSchemas }),
    totals: { chars, bytes, tokens },
    omissions: report?.omitted ?? [],
    ...definedFields({ budget: report }),
  };
}
