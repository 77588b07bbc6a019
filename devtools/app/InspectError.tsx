import { formatName } from "../components/names.ts";
import type { SerializedError } from "../inspect/protocol.ts";

/** A request core could not read: the message, every issue with its JSON path, and the formats tried. */
export function InspectError({ error }: { readonly error: SerializedError }) {
  return (
    <div className="inspect-error" role="alert" data-testid="inspect-error" data-code={error.code}>
      <h2>This request could not be inspected</h2>
      <p data-testid="inspect-error-message">{error.message}</p>
      {error.issues.length > 0 ? (
        <ul className="issue-list" data-testid="shape-errors">
          {error.issues.slice(0, 200).map((issue, i) => (
            <li key={i} data-testid="shape-error" data-path={issue.path}>
              <code className="path">{issue.path || "(root)"}</code>
              {issue.line !== undefined ? (
                <span className="muted">
                  {" "}
                  line {issue.line}, column {issue.column}
                </span>
              ) : null}
              <span> {issue.message}</span>
            </li>
          ))}
          {error.issues.length > 200 ? <li className="muted">…and {error.issues.length - 200} more</li> : null}
        </ul>
      ) : null}
      {error.tried.length > 0 ? (
        <p className="muted" data-testid="formats-tried">
          Formats tried, closest first: {error.tried.map(formatName).join(", ")}.
        </p>
      ) : null}
    </div>
  );
}
