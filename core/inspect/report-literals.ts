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

/** The texts of the given parts by path: tool descriptions and schemas, text blocks, text documents. */
function textsOf(request: NormalizedRequest, parts: readonly RequestPart[]): LiteralText[] {
  const out: LiteralText[] = [];
  for (const p of parts) {
    if (p.messageIndex === null) {
      const t = request.tools[Number(/^tools\[(\d+)\]$/.exec(p.path)?.[1] ?? -1)];
      if (t?.description) out.push({ path: `${p.path}.description`, text: t.description });
      if (t?.inputSchema !== undefined)
        out.push({ path: `${p.path}.inputSchema`, text: JSON.stringify(t.inputSchema) });
      continue;
    }
    const m = request.messages[p.messageIndex]!;
    for (let j = p.firstBlock!; j < p.endBlock!; j++) {
      const b = m.content[j]!;
      const text = b.type === "text" ? b.text : b.type === "document" ? b.text : undefined;
      if (text !== undefined) out.push({ path: `messages[${p.messageIndex}].content[${j}]`, text });
    }
  }
  return out;
}

const BLOCK = /^messages\[(\d+)\]\.content\[(\d+)\]$/;
const TOOL = /^tools\[(\d+)\]\.(description|inputSchema)$/;

/** The previous request's text at each path a finding names (only those: the history is not walked). */
function previousTexts(
  previous: NormalizedRequest,
  findings: readonly { readonly path: string }[],
): Map<string, string> {
  const out = new Map<string, string>();
  for (const { path } of findings) {
    if (out.has(path)) continue;
    const b = BLOCK.exec(path);
    const t = TOOL.exec(path);
    let text: string | undefined;
    if (b) {
      const block = previous.messages[Number(b[1])]?.content[Number(b[2])];
      text = block?.type === "text" || block?.type === "document" ? block.text : undefined;
    } else if (t) {
      const tool = previous.tools[Number(t[1])];
      text =
        t[2] === "description"
          ? tool?.description
          : tool?.inputSchema === undefined
            ? undefined
            : JSON.stringify(tool.inputSchema);
    }
    if (text !== undefined) out.set(path, text);
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
    ? confirmLiteralChanges(findings, previousTexts(previous, findings))
    : findings.map(() => null);
  return {
    scanned: texts.map((t) => t.path),
    findings: findings.map((f, i) => ({ ...f, changed: changed[i] ?? null })),
    truncated: findings.length >= MAX_FINDINGS,
  };
}
