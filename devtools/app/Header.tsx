import { useState } from "react";
import { DEFAULT_INPUT_LAYOUT } from "../../core/assembly/index.ts";
import type { Labels } from "../components/closedSets.ts";
import { PROVIDER_NAMES } from "../components/names.ts";
import { useInspection } from "../inspect/useInspection.ts";
import { useUi, PROVIDER_CHOICES, LAYOUTS, type ProviderChoice } from "../store/settings.ts";
import { ShareControls } from "./ShareControls.tsx";
import { NumberField } from "./NumberField.tsx";
import { setTheme } from "./useRouting.ts";
import { MODEL_SUGGESTIONS } from "./models.ts";
import "./Header.css";

const PROVIDER_LABELS: Labels<ProviderChoice> = { auto: "Auto", ...PROVIDER_NAMES };

/** Model id: committed on Enter or when the field loses focus, not on every keystroke. */
function ModelField() {
  const model = useUi((s) => s.model);
  const provider = useUi((s) => s.provider);
  const set = useUi((s) => s.set);
  const { query: inspection } = useInspection();
  const [text, setText] = useState(model);
  const [seen, setSeen] = useState(model);
  if (seen !== model) {
    setSeen(model);
    setText(model);
  }
  const commit = () => text.trim() !== model && set({ model: text.trim() });
  const suggestions = MODEL_SUGGESTIONS.filter((m) => provider === "auto" || m.provider === provider);
  return (
    <label className="field">
      <span className="field-label">Model</span>
      <input
        type="text"
        data-testid="model-picker"
        list="strata-models"
        value={text}
        size={18}
        placeholder={inspection.data?.report.model || "from request"}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === "Enter" && commit()}
      />
      <datalist id="strata-models">
        {suggestions.map((m) => (
          <option key={m.id} value={m.id}>
            {m.provider}
          </option>
        ))}
      </datalist>
    </label>
  );
}

export function Header() {
  const provider = useUi((s) => s.provider);
  const chosenLayout = useUi((s) => s.layout);
  const { query } = useInspection();
  const report = query.data?.report;
  const layout = chosenLayout ?? report?.settings.layout ?? DEFAULT_INPUT_LAYOUT;
  const layoutApplies = report === undefined || report.format === "strata";
  const maxInputTokens = useUi((s) => s.maxInputTokens);
  const maxInputBytes = useUi((s) => s.maxInputBytes);
  const theme = useUi((s) => s.theme);
  const set = useUi((s) => s.set);
  return (
    <header className="app-header" data-testid="app-header">
      <div className="brand">
        <h1>Strata</h1>
        <span className="tagline">See exactly what your prompt assembles to.</span>
      </div>
      <div className="header-controls" role="group" aria-label="Inspection settings">
        <label className="field">
          <span className="field-label">Provider</span>
          <select
            data-testid="provider-picker"
            value={provider}
            title="Whose cache rules and prompt order to use; Auto infers it from the format and model"
            onChange={(e) => set({ provider: e.target.value as ProviderChoice })}
          >
            {PROVIDER_CHOICES.map((p) => (
              <option key={p} value={p}>
                {PROVIDER_LABELS[p]}
              </option>
            ))}
          </select>
        </label>
        <ModelField />
        <div className="field">
          <span className="field-label" id="layout-label">
            Layout
          </span>
          <div
            className="segmented"
            role="group"
            aria-labelledby="layout-label"
            data-testid="layout-toggle"
            data-value={layout}
            data-from-request={chosenLayout === null}
            title={
              layoutApplies
                ? "Input layout for Strata assembly requests (both are shown in Layout order)"
                : "Wire requests are already assembled: the layout applies to Strata assembly requests"
            }
          >
            {LAYOUTS.map((l) => (
              <button
                key={l}
                type="button"
                data-testid={`layout-${l}`}
                aria-pressed={layout === l}
                disabled={!layoutApplies}
                onClick={() => set({ layout: l })}
              >
                {l}
              </button>
            ))}
          </div>
        </div>
        <NumberField
          label="Max tokens"
          testId="budget-tokens"
          value={maxInputTokens}
          onCommit={(v) => set({ maxInputTokens: v })}
        />
        <NumberField
          label="Max bytes"
          testId="budget-bytes"
          value={maxInputBytes}
          onCommit={(v) => set({ maxInputBytes: v })}
        />
      </div>
      <div className="header-actions">
        <ShareControls />
        <button
          type="button"
          data-testid="theme-toggle"
          data-theme={theme}
          aria-pressed={theme === "dark"}
          aria-label="Dark theme"
          title="Toggle dark theme"
          onClick={() => setTheme(theme === "dark" ? "light" : "dark")}
        >
          {theme === "dark" ? "☀ Light" : "☾ Dark"}
        </button>
      </div>
    </header>
  );
}
