import { useState } from "react";
import type { HistoryIssue } from "../../../core/conversation/index.ts";
import type { InspectionReport } from "../../../core/inspect/index.ts";
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
          <span className="muted">Tool calls answered, roles in order, nothing orphaned.</span>
        </div>
        {issues.length === 0 ? (
          <p className="ok" data-testid="history-ok">
            No issues in {plural(messages.length, "message")}.
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
          rowHeight={40}
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
