import { Component, type ErrorInfo, type ReactNode } from "react";

interface Props {
  /** Shown in the fallback: which view failed. */
  readonly label: string;
  /** When this changes (a new report), a failed view gets another chance. */
  readonly resetKey: string;
  readonly children: ReactNode;
}

interface State {
  readonly error: Error | null;
  readonly failedKey: string | null;
}

/** One per view: a view that throws shows its error and leaves the rest of the page working. */
export class ViewErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, failedKey: null };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (state.error && state.failedKey !== null && state.failedKey !== props.resetKey)
      return { error: null, failedKey: null };
    return null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    this.setState({ failedKey: this.props.resetKey });
    console.error(`Strata devtools: the ${this.props.label} view failed`, error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="view-error" role="alert" data-testid="view-error">
        <h2>The {this.props.label} view could not be drawn.</h2>
        <p data-testid="view-error-message">{this.state.error.message}</p>
        <p className="muted">The other views still work. Change the input or settings, or try again.</p>
        <button
          type="button"
          data-testid="view-error-retry"
          onClick={() => this.setState({ error: null, failedKey: null })}
        >
          Try again
        </button>
      </div>
    );
  }
}
