/**
 * The optional real tokenizer: gpt-tokenizer's o200k_base (GPT-4o/GPT-5 family), pure JS.
 * Its merge tables are large, so the module is imported on first use only (its own chunk).
 */
export type Estimator = (text: string) => number;

let loading: Promise<Estimator> | undefined;

export function loadGptTokenizer(): Promise<Estimator> {
  loading ??= import("gpt-tokenizer/encoding/o200k_base").then((m) => (text: string) => m.countTokens(text));
  return loading;
}
