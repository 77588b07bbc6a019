import { useState } from "react";
import { parseInput } from "../components/useParsedInput.ts";
import { useInspection } from "../inspect/useInspection.ts";
import { useInput } from "../store/input.ts";
import { nextTurnText, previousTurnText } from "../turns/simulate.ts";

/**
 * Fill the previous-turn slot without a second request at hand: rebuild the previous turn from
 * the current one, or move the current one into the slot and simulate the next turn.
 */
export function PreviousTurnActions() {
  const { query } = useInspection();
  const report = query.data?.report;
  const [error, setError] = useState<string | null>(null);
  const run = async (kind: "previous" | "next") => {
    if (!report) return;
    const input = useInput.getState();
    const parsed = parseInput(input.current);
    const value = parsed.kind === "ok" ? parsed.value : undefined;
    const result = await (kind === "previous" ? previousTurnText(report, value) : nextTurnText(report, value));
    if (!result.ok) {
      setError(result.reason);
      return;
    }
    setError(null);
    if (kind === "previous") input.setText("previous", result.text, "simulated previous turn");
    else {
      input.setText("previous", input.current, input.source ? `previous: ${input.source}` : "previous turn");
      useInput.getState().setText("current", result.text, "simulated next turn");
    }
  };
  return (
    <>
      <button
        type="button"
        data-testid="simulate-previous-turn"
        disabled={!report || query.isPlaceholderData}
        onClick={() => void run("previous")}
        title="Fill this slot with the current request minus its last exchange"
      >
        Simulate previous
      </button>
      <button
        type="button"
        data-testid="simulate-next-turn"
        disabled={!report || query.isPlaceholderData}
        onClick={() => void run("next")}
        title="Move the current request here and replace it with its next turn (placeholder reply and input)"
      >
        Simulate next
      </button>
      {error ? (
        <span className="error input-action-error" role="alert" data-testid="simulate-error">
          {error}
        </span>
      ) : null}
    </>
  );
}
