/**
 * The report's `volatileLiterals` section: `lintLiteralVolatility` over the literal text of the
 * stable part of the prompt — tool descriptions and schemas, the instructions, context, summaries
 * and attachments. History, tool results and the current input are not read: history is replayed
 * as it was sent, so a value in it does not change between turns. With a previous request, each
 * finding says whether its value changed since.
 */
import type { RequestPart } from "../cache/types.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import {
  confirmLiteralChanges,
  type LiteralText,
  lintLiteralVolatility,
  MAX_FINDINGS,
} from "../templates/literal-volatility.ts";
import type { ReportLiterals } from "./types.ts";

const STABLE: ReadonlySet<string> = new Set(["tools", "instructions", "context", "summary", "attachment"]);

/** Every text of a request by path: tool descriptions and schemas, text blocks, text documents. */
function textsOf(request: NormalizedRequest, parts: readonly RequestPart[] | null): LiteralText[] {
  const out: LiteralText[] = [];
  request.tools.forEach((t, i) => {
    if (parts && !parts.some((p) => p.path === `tools[${i}]`)) return;
    if (t.description) out.push({ path: `tools[${i}].description`, text: t.description });
    if (t.inputSchema !== undefined) out.push({ path: `tools[${i}].inputSchema`, text: JSON.stringify(t.inputSchema) });
  });
  const messageParts =
    parts ?? request.messages.map((m, i) => ({ messageIndex: i, firstBlock: 0, endBlock: m.content.length }));
  for (const p of messageParts) {
    if (p.messageIndex === null) continue;
    const m = request.messages[p.messageIndex]!;
    for (let j = p.firstBlock!; j < p.endBlock!; j++) {
      const b = m.content[j]!;
      const text = b.type === "text" ? b.text : b.type === "document" ? b.text : undefined;
      if (text !== undefined) out.push({ path: `messages[${p.messageIndex}].content[${j}]`, text });
    }
  }
  return out;
}

export function reportLiterals(
  request: NormalizedRequest,
  parts: readonly RequestPart[],
  previous: NormalizedRequest | null,
): ReportLiterals {
  const texts = textsOf(
    request,
    parts.filter((p) => STABLE.has(p.kind)),
  );
  const findings = lintLiteralVolatility(texts);
  const changed = previous
    ? confirmLiteralChanges(findings, new Map(textsOf(previous, null).map((t) => [t.path, t.text])))
    : findings.map(() => null);
  return {
    scanned: texts.map((t) => t.path),
    findings: findings.map((f, i) => ({ ...f, changed: changed[i] ?? null })),
    truncated: findings.length >= MAX_FINDINGS,
  };
}
