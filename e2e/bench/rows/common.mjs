// Helpers shared by the bench rows.
import { formatStats } from "../table.mjs";

/** Names from `names` that core/index.ts does not export (yet). */
export const missing = (core, names) => names.filter((n) => typeof core[n] !== "function");

/** A row that could not run because core lacks exports. */
export function notAvailable(group, name, input, absent) {
  return {
    group,
    name,
    input,
    subject: `n/a (core has no ${absent.map((n) => `\`${n}\``).join(", ")} yet)`,
    verdict: "n/a",
  };
}

/** A row comparing a subject with a baseline measured in the same run. */
export function ratioRow({
  group,
  name,
  input,
  stats,
  subjectKey,
  baselineKey,
  baselineName,
  goal,
  note,
  profile,
  profileAgainst,
}) {
  const subject = stats[subjectKey];
  const baseline = stats[baselineKey];
  return {
    group,
    name,
    input,
    subject: formatStats(subject),
    baselineName,
    baseline: formatStats(baseline),
    ratio: subject.median / baseline.median,
    ...(goal ? { goal } : {}),
    ...(note ? { note } : {}),
    ...(profile ? { profile } : {}),
    ...(profileAgainst ? { profileAgainst } : {}),
  };
}

/**
 * Strata's measured text of a message (core/assembly/context-measure.ts): block payloads joined
 * with "\n" — text; `name(<arguments JSON>)` for a tool call; the result (JSON unless a string).
 * The bench uses it to size budgets and to give LangChain the very same ÷4 counter.
 */
export function measuredText(message) {
  return message.content
    .map((b) => {
      if (b.type === "text" || b.type === "thinking") return b.text;
      if (b.type === "tool_call") return `${b.name}(${JSON.stringify(b.arguments)})`;
      if (b.type === "tool_result") return typeof b.result === "string" ? b.result : JSON.stringify(b.result);
      return b.text ?? b.data ?? b.url ?? "";
    })
    .join("\n");
}

/** The spec's default estimate: ceil(UTF-16 length / 4). */
export const divideBy4 = (text) => Math.ceil(text.length / 4);

export const tokensOf = (messages) => messages.reduce((sum, m) => sum + divideBy4(measuredText(m)), 0);
