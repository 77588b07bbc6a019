import { useState } from "react";
import type { HistoryIssue } from "../../../core/conversation/index.ts";
import type { InspectionReport } from "../../../core/inspect/index.ts";
import type { Labels } from "../../components/closedSets.ts";
import { plural } from "../../components/format.ts";
import { historyIssueText } from "../../components/names.ts";
import { messagePreview } from "../../components/messagePreview.ts";
import { VirtualList } from "../../components/VirtualList.tsx";
import "./History.css";

/** Issues grouped by the message they are pinned to. */
export function issuesByMessage(issues: readonly HistoryIssue[]): ReadonlyMap<number, readonly HistoryIssue[]> {
  const map = new Map<number, HistoryIssue[]>();
  for (const i of issues) {
    const list = map.get(i.index);
    if (list) list.push(i);
    else map.set(i.index, [i]);
  }
  return map;
}

/** Whose rules the history was checked by; the verdict itself is stated below it, never here. */
const RULES_TEXT: Labels<InspectionReport["history"]["rules"]> = {
  strata: "Checked by Strata's pipeline rules: tool results come right after their call, then the assistant.",
  "openai-chat":
    "Checked by OpenAI Chat's rules: tool messages answer each call right after it; any message may follow.",
  "openai-responses": "Checked by OpenAI Responses' rules: every function_call has a function_call_output later on.",
  anthropic: "Checked by Anthropic's rules: the next user turn answers every tool_use, results first, then any text.",
  gemini: "Checked by Gemini's rules: the next turn holds one function response per function call.",
  "bedrock-converse":
    "Checked by Bedrock Converse's rules: the next user turn answers every toolUse with a toolResult.",
};

/** History validation: every issue pinned to the message that causes it. */
export function HistoryView({ report }: { readonly report: InspectionReport }) {
  const messages = report.request?.messages ?? [];
  const issues = report.history.issues;
  const pinned = issuesByMessage(issues);
  const [focus, setFocus] = useState<number | null>(null);
  return (
    <>
      <section className="panel">
        <div className="panel-head">
          <h2>History validation</h2>
          <span className="muted" data-testid="history-rules" data-rules={report.history.rules}>
            {RULES_TEXT[report.history.rules]}
          </span>
        </div>
        {issues.length === 0 ? (
          <p className="ok" data-testid="history-ok">
            No issues in {plural(messages.length, "message")}: every tool call is answered where{" "}
            {report.history.rules === "strata" ? "Strata's pipeline" : "the provider"} expects it, and nothing is
            orphaned.
          </p>
        ) : (
          <ul className="hi-issues" data-testid="history-issues">
            {issues.map((issue, i) => (
              <li key={i} data-testid="history-issue" data-index={issue.index} data-code={issue.code}>
                <button
                  type="button"
                  className="link"
                  data-testid="history-issue-jump"
                  onClick={() => setFocus(issue.index)}
                >
                  messages[{issue.index}]
                </button>{" "}
                <span className="badge badge-error" title={historyIssueText(issue.code)}>
                  {issue.code}
                </span>{" "}
                {issue.message}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel">
        <div className="panel-head">
          <h2>Messages</h2>
          <span className="muted">{plural(messages.length, "message")} of the normalized request.</span>
        </div>
        <VirtualList
          items={messages}
          // A message without an issue is one line (31.8 px): with none in the list, rows are placed
          // at 32 px, not measured (an 18.5 MB chat spent ~15 ms measuring the drawn rows per switch).
          rowHeight={issues.length === 0 ? 32 : 40}
          fixedRowHeight={issues.length === 0}
          testId="history-messages"
          scrollToIndex={focus}
          renderRow={(m, i) => {
            const own = pinned.get(i);
            return (
              <div
                className={`hi-msg${own ? " has-issue" : ""}${focus === i ? " focused" : ""}`}
                data-testid="history-message"
                data-index={i}
                data-role={m.role}
                data-issues={own?.length ?? 0}
              >
                <span className="hi-idx num">{i}</span>
                <span className="hi-role">{m.role}</span>
                <span className="hi-body">
                  <span className="hi-preview">{messagePreview(m, 200)}</span>
                  {own?.map((issue, k) => (
                    <span
                      key={k}
                      className="hi-pin"
                      data-testid="history-pin"
                      data-code={issue.code}
                      title={historyIssueText(issue.code)}
                    >
                      ⚠ {issue.code}: {issue.message}
                    </span>
                  ))}
                </span>
              </div>
            );
          }}
        />
      </section>
    </>
  );
}
