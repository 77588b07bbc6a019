import { useMemo, useState } from "react";
import type { InspectionReport } from "../../../core/inspect/index.ts";
import type { Labels } from "../../components/closedSets.ts";
import { CopyButton, downloadText } from "../../components/CopyButton.tsx";
import { fmtBytes, plural } from "../../components/format.ts";
import { JsonLines } from "../../components/JsonLines.tsx";
import { plainText, textBytes } from "../../components/textParts.ts";
import { requestImages, Thumbnail } from "../../components/Thumbnail.tsx";
import { FORMAT_NAMES } from "../../components/names.ts";
import { fingerprintCount } from "../../inspect/chunks.ts";
import { workerRequestJson } from "../../inspect/runner.ts";
import type { ViewProps } from "../props.ts";
import { EXPORT_FORMATS, exportRequest, type ExportFormat } from "./model.ts";
import "./Raw.css";

const TABS = ["request", "report", "export"] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Labels<Tab> = { request: "Normalized request", report: "Report", export: "Export" };

function ExportPanel({ report, coming }: { readonly report: InspectionReport; readonly coming: boolean }) {
  const [format, setFormat] = useState<ExportFormat>("anthropic");
  const [withBreakpoints, setWithBreakpoints] = useState(true);
  const request = report.request;
  const result = useMemo(
    () => (request ? exportRequest(report, request, format, withBreakpoints) : null),
    [report, request, format, withBreakpoints],
  );
  if (!request && coming)
    return (
      <p className="muted" data-testid="export-pending">
        The request is on its way from the inspector…
      </p>
    );
  if (!request || !result) return <p className="muted">No request to export.</p>;
  return (
    <div className="raw-export" data-testid="export-panel">
      <div className="raw-toolbar">
        <label>
          Format{" "}
          <select
            data-testid="export-format"
            value={format}
            onChange={(e) => setFormat(e.target.value as ExportFormat)}
          >
            {EXPORT_FORMATS.map((f) => (
              <option key={f} value={f}>
                {FORMAT_NAMES[f]}
              </option>
            ))}
          </select>
        </label>
        {format === "anthropic" ? (
          <label>
            <input
              type="checkbox"
              data-testid="export-breakpoints"
              checked={withBreakpoints}
              onChange={(e) => setWithBreakpoints(e.target.checked)}
            />{" "}
            suggested cache breakpoints
          </label>
        ) : null}
        {result.ok ? (
          <>
            <CopyButton testId="copy-export" text={() => result.text} label="Copy" />
            <button
              type="button"
              data-testid="download-export"
              onClick={() => downloadText(`request.${format}.json`, result.text)}
            >
              Download
            </button>
          </>
        ) : null}
      </div>
      {result.ok ? (
        <>
          {format === "anthropic" && withBreakpoints ? (
            <p className="muted" data-testid="export-breakpoint-list" data-count={result.breakpoints.length}>
              {report.breakpoints === null
                ? "No breakpoint suggested: suggestions follow Anthropic's cache rules, so choose Anthropic as the provider above."
                : result.breakpoints.length === 0
                  ? "No breakpoint suggested (the stable prefix is too short or unknown)."
                  : `cache_control at ${result.breakpoints.join(", ")}.`}
            </p>
          ) : null}
          {result.warnings.length > 0 ? (
            <div className="raw-export-warnings" data-testid="export-warnings" role="status">
              <p className="muted">
                Written as {FORMAT_NAMES[format]} with {plural(result.warnings.length, "change")}: what it has no place
                for is dropped, what it requires is filled in.
              </p>
              <ul>
                {result.warnings.map((w, i) => (
                  <li key={i} data-code={w.code}>
                    <code>{w.path}</code> {w.message}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <JsonLines text={result.text} testId="export-output" />
        </>
      ) : (
        <p className="error" role="alert" data-testid="export-error">
          {result.message}
        </p>
      )}
    </div>
  );
}

/** Inline images of the request (base64 or data: URLs) as small previews, with their paths. */
function Images({ report }: { readonly report: InspectionReport }) {
  const images = useMemo(() => requestImages(report.request, 50), [report.request]);
  if (images.length === 0) return null;
  return (
    <div className="raw-images" data-testid="raw-images">
      <span className="muted">Inline images:</span>
      {images.map((im) => (
        <figure key={im.path}>
          <Thumbnail block={im.block} size={32} />
          <figcaption>
            <code>{im.path}</code>
          </figcaption>
        </figure>
      ))}
    </div>
  );
}

/**
 * The normalized request and the report as JSON, copy and download, export to every wire format and the hash-only bundle.
 * A long request's first report comes without its request (`requestComing`): this view is drawn at
 * once, as it is while the request's JSON is prepared, and the request fills it when it comes.
 */
export function RawView({ report, requestComing }: ViewProps) {
  const [tab, setTab] = useState<Tab>("request");
  // Keyed on the request: a long request's whole report keeps its first report's request.
  const request = report.request;
  // A long request's text is made by the worker and comes with its whole report (null until then).
  const made = request ? workerRequestJson(request) : undefined;
  const requestText = useMemo(() => {
    if (tab !== "request" || !request) return "";
    return made === undefined ? JSON.stringify(request, null, 2) : made;
  }, [tab, request, made]);
  const requestBytes = useMemo(() => (requestText === null ? 0 : textBytes(requestText)), [requestText]);
  const reportText = useMemo(() => (tab === "report" ? JSON.stringify(report, null, 2) : ""), [tab, report]);
  const bundle = report.fingerprints;
  return (
    <section className="panel">
      <div className="panel-head raw-head">
        <div className="segmented" role="tablist" aria-label="Raw data">
          {TABS.map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              aria-selected={tab === t}
              aria-pressed={tab === t}
              data-testid={`raw-tab-${t}`}
              onClick={() => setTab(t)}
            >
              {TAB_LABELS[t]}
            </button>
          ))}
        </div>
        <span className="raw-spacer" />
        <button
          type="button"
          data-testid="download-bundle"
          disabled={!bundle}
          title="Segment paths, sizes and SHA-256 hashes only: no prompt text"
          onClick={() => bundle && downloadText("strata-fingerprints.json", JSON.stringify(bundle, null, 2))}
        >
          Download hash-only bundle{bundle ? ` (${plural(fingerprintCount(bundle), "segment")})` : ""}
        </button>
      </div>
      {tab === "request" ? (
        report.request ? (
          <>
            <div className="raw-toolbar">
              <CopyButton
                testId="copy-request"
                text={() => (requestText === null ? "" : plainText(requestText))}
                label="Copy request"
              />
              {requestText === null ? null : (
                <span className="muted" data-testid="raw-request-size">
                  {fmtBytes(requestBytes)} of JSON
                </span>
              )}
            </div>
            <Images report={report} />
            {requestText === null ? (
              <p className="muted" data-testid="raw-request-pending">
                Preparing the request&apos;s JSON…
              </p>
            ) : (
              <JsonLines text={requestText} testId="raw-request" />
            )}
          </>
        ) : requestComing ? (
          <p className="muted" data-testid="raw-request-pending">
            Preparing the request&apos;s JSON…
          </p>
        ) : (
          <p className="muted">The request could not be normalized; see the report.</p>
        )
      ) : null}
      {tab === "report" ? (
        <>
          <div className="raw-toolbar">
            <CopyButton testId="copy-report" text={() => reportText} label="Copy report" />
            <button
              type="button"
              data-testid="download-report"
              onClick={() => downloadText("strata-report.json", reportText)}
            >
              Download
            </button>
            <span className="muted">reportVersion {report.reportVersion}</span>
          </div>
          <JsonLines text={reportText} testId="raw-report" />
        </>
      ) : null}
      {tab === "export" ? <ExportPanel report={report} coming={Boolean(requestComing)} /> : null}
    </section>
  );
}
