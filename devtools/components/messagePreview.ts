import type { Message } from "../../core/index.ts";

/** A one-line summary of a message: its text, with non-text blocks named (`[tool_call search]`). Text only. */
export function messagePreview(m: Message, max = 160): string {
  let out = "";
  for (const b of m.content) {
    const part =
      b.type === "text" || b.type === "thinking"
        ? b.text
        : b.type === "tool_call"
          ? `[tool_call ${b.name}]`
          : b.type === "tool_result"
            ? `[tool_result ${b.name}]`
            : `[${b.type}]`;
    out = out === "" ? part : `${out} ${part}`;
    if (out.length > max) break;
  }
  const flat = out.replace(/\s+/g, " ");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
