/** One named rendering case: template + context → expected text (or an error code). */
export interface JinjaCorpusCase {
  readonly name: string;
  readonly template: string;
  readonly context: Readonly<Record<string, unknown>>;
  /** Expected output; for an `error` case, what `onError: "original"` returns (the template). */
  readonly expected: string;
  readonly options?: {
    readonly now?: Date;
    readonly defaults?: Readonly<Record<string, unknown>>;
    readonly trimBlocks?: boolean;
    readonly lstripBlocks?: boolean;
  };
  /** The `TemplateError` code `onError: "throw"` raises. */
  readonly error?: string;
  /**
   * Why Python Jinja2 (the reference the expected outputs were cross-checked against while
   * writing them) renders this case differently: @huggingface/jinja prints `true`/`false`
   * lower-case and `none` as nothing, and prompts are never HTML-escaped.
   */
  readonly differsFromJinja2?: string;
}
