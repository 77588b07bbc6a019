import { useMemo, useState } from "react";
import type { InspectionReport } from "../../../core/inspect/index.ts";
import type { Labels } from "../../components/closedSets.ts";
import { fmtInt, plural } from "../../components/format.ts";
import { VOLATILITY_LABELS } from "../../components/names.ts";
import { parseInput } from "../../components/useParsedInput.ts";
import { useInput } from "../../store/input.ts";
import {
  ENGINES,
  lint,
  playgroundFrom,
  renderPlayground,
  templateBlockOf,
  type Engine,
  type PlaygroundInput,
} from "./model.ts";
import "./Templates.css";

const ENGINE_LABELS: Labels<Engine> = {
  jinja: "Jinja (template block)",
  name: "{{name}} (renderPromptTemplate)",
};

/** The template with line numbers; lines holding a volatile value carry their warning inline. */
function AnnotatedSource({
  template,
  warnings,
}: {
  readonly template: string;
  readonly warnings: ReturnType<typeof lint>;
}) {
  const lines = template.split("\n");
  const byLine = new Map<number, ReturnType<typeof lint>[number][]>();
  for (const w of warnings) if (w.line !== null) byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
  const unplaced = warnings.filter((w) => w.line === null);
  return (
    <div className="tp-source" data-testid="template-annotated">
      {lines.map((line, i) => {
        const own = byLine.get(i + 1);
        return (
          <div
            key={i}
            className={`tp-line${own ? " volatile" : ""}`}
            data-testid="template-line"
            data-line={i + 1}
            data-volatile={own ? "true" : "false"}
          >
            <span className="tp-ln">{i + 1}</span>
            <span className="tp-code">{line === "" ? " " : line}</span>
            {own?.map((w, k) => (
              <span
                key={k}
                className="tp-warning"
                data-testid="volatility-warning"
                data-variable={w.variable}
                data-line={w.line}
                data-column={w.column}
              >
                ⚠ <code>{w.variable}</code> ({VOLATILITY_LABELS[w.volatility]}) at column {w.column}: {w.message}
              </span>
            ))}
          </div>
        );
      })}
      {unplaced.map((w, k) => (
        <p key={k} className="tp-warning" data-testid="volatility-warning" data-variable={w.variable}>
          ⚠ <code>{w.variable}</code>: {w.message}
        </p>
      ))}
    </div>
  );
}

function Playground({ initial }: { readonly initial: PlaygroundInput }) {
  const [input, setInput] = useState(initial);
  const result = useMemo(() => renderPlayground(input), [input]);
  const warnings = useMemo(
    () => (input.engine === "jinja" ? lint(input.template) : []),
    [input.engine, input.template],
  );
  const set = (patch: Partial<PlaygroundInput>) => setInput((s) => ({ ...s, ...patch }));
  const argError =
    !result.ok && (result.field === "args" || result.field === "defaults" || result.field === "now")
      ? result.field
      : null;
  return (
    <div className="tp-grid">
      <div className="tp-inputs">
        <div className="tp-engine" role="radiogroup" aria-label="Template engine">
          {ENGINES.map((e) => (
            <label key={e}>
              <input
                type="radio"
                name="tp-engine"
                value={e}
                checked={input.engine === e}
                data-testid={`template-engine-${e}`}
                onChange={() => set({ engine: e })}
              />{" "}
              {ENGINE_LABELS[e]}
            </label>
          ))}
        </div>
        <label className="tp-field">
          <span>Template</span>
          <textarea
            data-testid="template-source"
            spellCheck={false}
            rows={7}
            value={input.template}
            onChange={(e) => set({ template: e.target.value })}
            placeholder="Hello {{ name }}"
          />
        </label>
        <label className="tp-field">
          <span>Arguments (JSON){input.engine === "jinja" ? " — also reachable as args.<name>" : ""}</span>
          <textarea
            data-testid="template-args"
            spellCheck={false}
            rows={4}
            aria-invalid={argError === "args"}
            value={input.args}
            onChange={(e) => set({ args: e.target.value })}
          />
        </label>
        {input.engine === "jinja" ? (
          <>
            <label className="tp-field">
              <span>Defaults (JSON, below arguments)</span>
              <textarea
                data-testid="template-defaults"
                spellCheck={false}
                rows={3}
                aria-invalid={argError === "defaults"}
                value={input.defaults}
                onChange={(e) => set({ defaults: e.target.value })}
              />
            </label>
            <label className="tp-field">
              <span>Clock for system.* (ISO 8601; empty = no clock)</span>
              <input
                type="text"
                data-testid="template-now"
                aria-invalid={argError === "now"}
                value={input.now}
                onChange={(e) => set({ now: e.target.value })}
                placeholder="2026-01-15T12:00:00Z"
              />
            </label>
          </>
        ) : null}
      </div>
      <div className="tp-outputs">
        <h3>Rendered</h3>
        {result.ok ? (
          <>
            {result.fellBack ? (
              <p
                className="warn"
                role="alert"
                data-testid="template-error"
                data-line={result.fellBack.line ?? ""}
                data-column={result.fellBack.column ?? ""}
              >
                {result.fellBack.message} The source text is used instead.
              </p>
            ) : null}
            <pre className="tp-output text-block" data-testid="template-output">
              {result.text}
            </pre>
            <p className="muted">{fmtInt(result.text.length)} chars</p>
          </>
        ) : (
          <p
            className="error"
            role="alert"
            data-testid="template-error"
            data-field={result.field}
            data-line={result.line ?? ""}
            data-column={result.column ?? ""}
          >
            {result.message}
          </p>
        )}
        <h3>Volatility</h3>
        {input.engine !== "jinja" ? (
          <p className="muted">The volatility lint reads Jinja templates.</p>
        ) : warnings.length === 0 ? (
          <p className="ok" data-testid="template-stable">
            No volatile values: the rendered text is the same on every request.
          </p>
        ) : (
          <p className="warn" data-testid="template-volatile-count">
            {plural(warnings.length, "volatile value")}: the prompt changes from there on, so caches miss after it.
          </p>
        )}
        {input.template !== "" ? <AnnotatedSource template={input.template} warnings={warnings} /> : null}
      </div>
    </div>
  );
}

/** The request's template rendered with its arguments and namespaces, editable, with volatility warnings on the lines they concern. */
export function TemplatesView({ report }: { readonly report: InspectionReport }) {
  const current = useInput((s) => s.current);
  // Only a Strata request has a template block: a 5 MB wire request is never re-parsed here.
  const block = useMemo(() => {
    if (report.format !== "strata" || report.templates === null) return null;
    const parsed = parseInput(current);
    return parsed.kind === "ok" ? templateBlockOf(parsed.value) : null;
  }, [current, report.format, report.templates]);
  const t = report.templates;
  return (
    <>
      <section className="panel" data-testid="template-summary">
        <div className="panel-head">
          <h2>Template</h2>
          <span className="muted">
            {t
              ? `Rendered into ${t.target}: ${fmtInt(t.templateChars)} → ${fmtInt(t.renderedChars)} chars, sha256 ${t.renderedSha256.slice(0, 12)}…`
              : "This request has no template block. Try one below: nothing you type here is sent anywhere."}
          </span>
        </div>
        {t?.error ? (
          <p className="warn" data-testid="report-template-error">
            {t.error.message}
          </p>
        ) : null}
      </section>
      <section className="panel">
        <div className="panel-head">
          <h2>Playground</h2>
          <span className="muted">Rendered by core as inspect renders it; edits stay in this view.</span>
        </div>
        <Playground
          key={report.templates?.renderedSha256 ?? `none:${block ? "block" : ""}`}
          initial={playgroundFrom(block)}
        />
      </section>
    </>
  );
}
