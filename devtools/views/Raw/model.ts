import {
  toAnthropic,
  toBedrock,
  toGemini,
  toOpenAIChat,
  toOpenAIResponses,
  WIRE_FORMATS,
  type ExportWarning,
  type NormalizedRequest,
  type WireFormat,
} from "../../../core/formats/index.ts";
import { type InspectionReport } from "../../../core/inspect/index.ts";

/** The wire formats offered for export; a Strata request is only read. */
export const EXPORT_FORMATS = WIRE_FORMATS;
export type ExportFormat = WireFormat;

export type ExportResult =
  | {
      readonly ok: true;
      readonly text: string;
      readonly breakpoints: readonly string[];
      /** What the converter dropped, translated loosely or filled in (from core's `to*`). */
      readonly warnings: readonly ExportWarning[];
    }
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
    let out: { readonly body: unknown; readonly warnings: readonly ExportWarning[] };
    switch (format) {
      case "openai-chat":
        out = toOpenAIChat(request);
        break;
      case "openai-responses":
        out = toOpenAIResponses(request);
        break;
      case "gemini":
        out = toGemini(request);
        break;
      case "bedrock-converse":
        out = toBedrock(request);
        break;
      case "anthropic":
        breakpoints = withBreakpoints ? (report.breakpoints ?? []).map((b) => b.path) : [];
        out = withBreakpoints ? toAnthropic(request, { breakpoints }) : toAnthropic(request);
        break;
      default:
        format satisfies never;
        throw new Error(`unknown export format ${String(format)}`);
    }
    return { ok: true, text: JSON.stringify(out.body, null, 2), breakpoints, warnings: out.warnings };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
