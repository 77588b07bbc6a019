/**
 * Canonical serialization: JSON with object keys sorted (by UTF-16 code units) at every
 * depth and no whitespace. Two values that differ only in key order serialize the same.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      const v: unknown = value[i];
      out += v === undefined || typeof v === "function" ? "null" : canonicalJson(v);
    }
    return `${out}]`;
  }
  const keys = Object.keys(value).sort();
  let out = "{";
  let first = true;
  for (const k of keys) {
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined || typeof v === "function") continue;
    out += `${first ? "" : ","}${JSON.stringify(k)}:${canonicalJson(v)}`;
    first = false;
  }
  return `${out}}`;
}
