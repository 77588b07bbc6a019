import type { InspectionReport, LiteralFinding } from "../../../core/inspect/index.ts";
import { fmtInt, plural } from "../../components/format.ts";

const KIND_WORDS: Readonly<Record<string, string>> = {
  iso_timestamp: "timestamp",
  date: "date",
  time: "time",
  epoch: "epoch number",
  uuid: "UUID",
  random_id: "random-looking id",
  counter: "counter",
};

/** The excerpt with the value marked (the first occurrence of it). */
function Excerpt({ f }: { readonly f: LiteralFinding }) {
  const at = f.excerpt.indexOf(f.value);
  if (at < 0) return <code>{f.excerpt}</code>;
  return (
    <code className="tp-excerpt">
      …{f.excerpt.slice(0, at)}
      <mark>{f.value}</mark>
      {f.excerpt.slice(at + f.value.length)}…
    </code>
  );
}

function Changed({ changed, previous }: { readonly changed: boolean | null; readonly previous: boolean }) {
  if (!previous) return null;
  if (changed === null) return <span className="badge">not in the previous turn</span>;
  return changed ? (
    <span className="badge badge-error">changed since the previous turn</span>
  ) : (
    <span className="badge badge-ok">same as the previous turn</span>
  );
}

/** Volatile-looking values in the literal text of the stable part of the prompt (core's literal lint). */
export function LiteralVolatility({ report }: { readonly report: InspectionReport }) {
  const lit = report.volatileLiterals;
  if (!lit) return null;
  const previous = report.settings.previous === "request";
  const changed = lit.findings.filter((f) => f.changed === true).length;
  return (
    <section className="panel" data-testid="literal-volatility" data-count={lit.findings.length}>
      <div className="panel-head">
        <h2>Volatile values in the prompt's text</h2>
        <span className="muted">
          Read: {plural(lit.scanned.length, "text")} of the stable part (tools, instructions, context, summaries,
          attachments); history is replayed as sent, so it is not read.
        </span>
      </div>
      {lit.findings.length === 0 ? (
        <p className="ok" data-testid="literal-stable">
          No dates, times, timestamps, ids or counters in the stable part of the prompt.
        </p>
      ) : (
        <>
          <p className="warn" data-testid="literal-summary">
            {plural(lit.findings.length, "value")} that may change between turns
            {previous
              ? `; ${fmtInt(changed)} did change since the previous turn`
              : " (add the previous turn to see which ones did)"}
            {lit.truncated ? "; more were found than a report lists" : ""}.
          </p>
          <ul className="tp-literals">
            {lit.findings.map((f, i) => (
              <li
                key={i}
                data-testid="literal-finding"
                data-kind={f.kind}
                data-path={f.path}
                data-changed={f.changed === null ? "" : String(f.changed)}
              >
                <span className="badge badge-warn">{KIND_WORDS[f.kind] ?? f.kind}</span>{" "}
                <code className="path">{f.path}</code> <span className="muted">byte {fmtInt(f.byteOffset)}</span>{" "}
                <Changed changed={f.changed} previous={previous} />
                <div>
                  <Excerpt f={f} />
                </div>
                <div className="muted">{f.message}</div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
