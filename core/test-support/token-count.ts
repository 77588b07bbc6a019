/**
 * A `TokenCount`'s keys in the order every counter writes them (the estimate and the exact OpenAI
 * count alike): `perSegment` keeps its place even where it is written only when read.
 */
export const TOKEN_COUNT_KEYS: readonly string[] = [
  "total",
  "method",
  "low",
  "high",
  "leading",
  "perSegment",
  "trailing",
  "provider",
  "model",
  "format",
  "encoding",
  "notes",
];
