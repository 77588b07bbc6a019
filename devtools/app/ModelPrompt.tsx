import type { InspectionReport } from "../../core/inspect/index.ts";
import { FORMAT_NAMES, PROVIDER_NAMES } from "../components/names.ts";
import { useUi } from "../store/settings.ts";
import { MODEL_SUGGESTIONS } from "./models.ts";

/**
 * A request that names no model (a Gemini body carries it in the URL): cache rules, minimums and
 * the context window need one, so ask for it, offering the rule table's models for the provider.
 */
export function ModelPrompt({ report }: { readonly report: InspectionReport }) {
  const set = useUi((s) => s.set);
  if (report.model !== "") return null;
  const choices = MODEL_SUGGESTIONS.filter((m) => m.provider === report.provider);
  return (
    <div className="notice notice-info model-prompt" role="status" data-testid="model-prompt">
      <span>
        This {FORMAT_NAMES[report.format]} request names no model, so the {PROVIDER_NAMES[report.provider]} cache rules
        and context window cannot be chosen. Which model is it sent to?
      </span>{" "}
      <select
        data-testid="model-prompt-picker"
        value=""
        aria-label="Model for this request"
        onChange={(e) => e.target.value && set({ model: e.target.value })}
      >
        <option value="">Pick a model…</option>
        {choices.map((m) => (
          <option key={m.id} value={m.id}>
            {m.id}
          </option>
        ))}
      </select>
    </div>
  );
}
