import { useFileDrop } from "./useFileDrop.ts";
import type { InspectionReport } from "../../core/inspect/index.ts";
import { useInput } from "../store/input.ts";
import { fmtInt } from "./format.ts";
import { fmtTokens } from "./tokens.ts";

type Usage = NonNullable<InspectionReport["usage"]>;

const signed = (n: number) => `${n > 0 ? "+" : ""}${fmtInt(n)}`;

/** Predicted vs actual: input, cache read and cache write, with the difference. */
function UsageTable({ usage, report }: { readonly usage: Usage; readonly report: InspectionReport }) {
  const a = usage.actual;
  const d = usage.difference;
  if (!a || !d)
    return (
      <p className="muted" data-testid="usage-none">
        No {usage.format} usage in this response: paste the whole body (a stream needs its last event), or its usage
        object.
      </p>
    );
  const rows = [
    {
      key: "input",
      label: "Input tokens",
      predicted: fmtTokens(usage.predicted.input, report.tokens),
      actual: a.input,
      diff: `${signed(d.input)}${d.inputPct === null ? "" : ` (${signed(d.inputPct)}%)`}`,
    },
    {
      key: "cacheRead",
      label: "Read from cache",
      predicted: fmtTokens(usage.predicted.cacheRead, report.tokens),
      actual: a.cacheRead,
      diff: signed(d.cacheRead),
    },
    {
      key: "cacheWrite",
      label: "Written to cache",
      predicted: fmtTokens(usage.predicted.cacheWrite, report.tokens),
      actual: a.cacheWrite,
      diff: signed(d.cacheWrite),
    },
  ];
  return (
    <>
      <table className="grid-table" data-testid="usage-table" data-within={String(usage.withinBand)}>
        <thead>
          <tr>
            <th />
            <th className="num">Predicted</th>
            <th className="num">Actual</th>
            <th className="num">Difference</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-testid={`usage-${r.key}`} data-actual={r.actual}>
              <td>{r.label}</td>
              <td className="num">{r.predicted}</td>
              <td className="num">{fmtInt(r.actual)}</td>
              <td className="num">{r.diff}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted" data-testid="usage-band">
        {usage.withinBand === null
          ? "No band for this count."
          : usage.withinBand
            ? `The billed input lies within the predicted band (${fmtInt(usage.predicted.low!)}–${fmtInt(usage.predicted.high!)}).`
            : `The billed input lies outside the predicted band (${fmtInt(usage.predicted.low!)}–${fmtInt(usage.predicted.high!)}).`}
        {usage.notes.length > 0 ? ` ${usage.notes.join(" ")}` : ""}
      </p>
    </>
  );
}

/**
 * The provider's response beside the request: a paste box and drop zone (JSON body, SSE stream or
 * its usage object); the report then puts what was billed beside what it predicted.
 */
export function ResponsePanel({ report }: { readonly report: InspectionReport }) {
  const response = useInput((s) => s.response);
  const source = useInput((s) => s.responseSource);
  const setResponse = useInput((s) => s.setResponse);
  const { dragging, dropProps } = useFileDrop(
    (file) => void file.text().then((text) => setResponse(text, `file: ${file.name}`)),
  );
  return (
    <section
      className={`panel response-panel${dragging ? " dragging" : ""}`}
      data-testid="response-panel"
      {...dropProps}
    >
      <div className="panel-head">
        <h2>Predicted vs actual</h2>
        <span className="muted">
          {response === "" ? "Paste or drop the provider's response to this request." : source}
        </span>
      </div>
      <textarea
        className="response-input"
        data-testid="response-input"
        aria-label="The provider's response"
        placeholder="The response body (JSON), its SSE stream, or just its usage object"
        spellCheck={false}
        rows={3}
        value={response}
        onChange={(e) => setResponse(e.target.value)}
      />
      {response !== "" ? (
        <button type="button" data-testid="response-clear" onClick={() => setResponse("", "")}>
          Clear
        </button>
      ) : null}
      {report.usage ? <UsageTable usage={report.usage} report={report} /> : null}
    </section>
  );
}
