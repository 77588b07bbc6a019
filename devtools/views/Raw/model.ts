import {
  toAnthropic,
  toBedrock,
  toGemini,
  toOpenAIChat,
  toOpenAIResponses,
  WIRE_FORMATS,
  type NormalizedRequest,
  type WireFormat,
} from "../../../core/formats/index.ts";
import { type InspectionReport } from "../../../core/inspect/index.ts";

/** The wire formats offered for export (Bedrock Converse is written too, by `toBedrock`, but not offered here yet); a Strata request is only read. */
export const EXPORT_FORMATS = WIRE_FORMATS.filter((f) => f !== "bedrock-converse");
export type ExportFormat = WireFormat;

export type ExportResult =
  | { readonly ok: true; readonly text: string; readonly breakpoints: readonly string[] }
  | { readonly ok: false; readonly message: string };

/** The normalized request in a wire format, via core's converters; Anthropic optionally with suggested `cache_control` breakpoints. */
export function exportRequest(
  report: InspectionReport,
  request: NormalizedRequest,
  format: ExportFormat,
  withBreakpoints: boolean,
): ExportResult {
  try {
    let breakpoints: readonly string[] = [];
    let value: unknown;
    switch (format) {
      case "openai-chat":
        value = toOpenAIChat(request).body;
        break;
      case "openai-responses":
        value = toOpenAIResponses(request).body;
        break;
      case "gemini":
        value = toGemini(request).body;
        break;
      case "bedrock-converse":
        value = toBedrock(request).body;
        break;
      case "anthropic":
        breakpoints = withBreakpoints ? (report.breakpoints ?? []).map((b) => b.path) : [];
        value = withBreakpoints ? toAnthropic(request, { breakpoints }).body : toAnthropic(request).body;
        break;
      default:
        format satisfies never;
    }
    return { ok: true, text: JSON.stringify(value, null, 2), breakpoints };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
