import { useMemo, useState } from "react";
import type { NormalizedRequest } from "../../core/formats/index.ts";
import type { InspectionReport } from "../../core/inspect/index.ts";
import { useInput } from "../store/input.ts";
import { exportRequest } from "../views/Raw/model.ts";
import { CopyButton, downloadText } from "./CopyButton.tsx";
import { utf8Length } from "../../core/cache/index.ts";
import { fmtBytes, fmtInt } from "./format.ts";
import { JsonLines } from "./JsonLines.tsx";
import { FORMAT_NAMES } from "./names.ts";

/**
 * A request derived from the report (trimmed, re-laid, composed) in the pasted request's own wire
 * format, by core's writer: copy it, download it, or open it in the editor (the current request
 * moves to the previous-turn slot, so the two can be compared).
 * Past `EAGER_EXPORT_MESSAGES` messages it is written when asked: converting and printing a
 * 5 MB chat took the main thread about a second, on every switch to a view that offers it.
 */
/** Requests up to this many messages are written as soon as the view shows them. */
export const EAGER_EXPORT_MESSAGES = 2000;

export function WireExport({
  report,
  request,
  what,
  testId,
}: {
  readonly report: InspectionReport;
  readonly request: NormalizedRequest;
  /** What it is, for labels and the file name: "trimmed request", "re-laid request", … */
  readonly what: string;
  readonly testId: string;
}) {
  const format = report.format;
  const [asked, setAsked] = useState(false);
  const write = asked || request.messages.length <= EAGER_EXPORT_MESSAGES;
  const result = useMemo(
    () => (format === "strata" || !write ? null : exportRequest(report, request, format, false)),
    [report, request, format, write],
  );
  // Measured once per written JSON, not on every render.
  const bytes = useMemo(() => (result?.ok ? utf8Length(result.text) : 0), [result]);
  if (format === "strata") return null;
  if (!result)
    return (
      <div className="wire-export" data-testid={testId} data-format={format} data-pending="true">
        <div className="raw-toolbar">
          <span>
            The {what} as {FORMAT_NAMES[format]} JSON: {fmtInt(request.messages.length)} messages, written when you ask
            (it holds the page for a moment).
          </span>
          <button type="button" data-testid={`${testId}-write`} onClick={() => setAsked(true)}>
            Write the JSON
          </button>
        </div>
      </div>
    );
  if (!result.ok)
    return (
      <p className="error" role="alert" data-testid={`${testId}-error`}>
        The {what} cannot be written as {FORMAT_NAMES[format]}: {result.message}
      </p>
    );
  const open = () => {
    const input = useInput.getState();
    input.setText("previous", input.current, input.source ? `previous: ${input.source}` : "previous turn");
    useInput.getState().setText("current", result.text, what);
  };
  return (
    <div className="wire-export" data-testid={testId} data-format={format}>
      <div className="raw-toolbar">
        <span>
          The {what} as {FORMAT_NAMES[format]} JSON (<span data-testid={`${testId}-size`}>{fmtBytes(bytes)}</span>):
        </span>
        <CopyButton testId={`${testId}-copy`} text={() => result.text} label="Copy" />
        <button
          type="button"
          data-testid={`${testId}-download`}
          onClick={() => downloadText(`${what.replace(/\W+/g, "-")}.${format}.json`, result.text)}
        >
          Download
        </button>
        <button
          type="button"
          data-testid={`${testId}-open`}
          title="Put it in the editor; the current request moves to the previous-turn slot"
          onClick={open}
        >
          Open in the editor
        </button>
      </div>
      <details>
        <summary>Show the JSON</summary>
        <JsonLines text={result.text} testId={`${testId}-json`} height={320} />
      </details>
    </div>
  );
}
