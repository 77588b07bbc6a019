/**
 * "Previous turn" and "next turn" of the request under study, for the cache comparison.
 * Wire requests go through core's normalized form and converters (so the text is in the same
 * format); a Strata AssemblyRequest is edited as JSON the way core's `simulateNextTurn` builds
 * its next turn: this turn's input and a reply join the history, tool results are not repeated.
 */
import { toAnthropic, toGemini, toOpenAIChat, toOpenAIResponses, type InspectionReport, type Message, type NormalizedRequest } from "../../core/index.ts";

export const SIMULATED_REPLY = "(assistant reply)";
export const SIMULATED_NEXT_INPUT = "(next user input)";

export type TurnResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

function toWire(format: InspectionReport["format"], request: NormalizedRequest): unknown {
  switch (format) {
    case "openai-chat":
      return toOpenAIChat(request);
    case "openai-responses":
      return toOpenAIResponses(request);
    case "anthropic":
      return toAnthropic(request);
    case "gemini":
      return toGemini(request);
    case "strata":
      throw new Error("unreachable: Strata requests are edited as JSON");
  }
}

const text = (role: Message["role"], t: string): Message => ({ role, content: [{ type: "text", text: t }] });
const pretty = (v: unknown) => JSON.stringify(v, null, 2);

type Json = Record<string, unknown>;
const asList = (input: unknown): unknown[] => (Array.isArray(input) ? input : input === undefined ? [] : typeof input === "string" ? [{ role: "user", content: input }] : [input]);
const roleOf = (m: unknown) => (typeof m === "object" && m !== null ? (m as { role?: unknown }).role : undefined);

function strataNext(req: Json): TurnResult {
  const { toolResults: _done, ...rest } = req;
  const history = Array.isArray(req["history"]) ? req["history"] : [];
  return { ok: true, text: pretty({ ...rest, history: [...history, ...asList(req["input"]), { role: "assistant", content: SIMULATED_REPLY }], input: SIMULATED_NEXT_INPUT }) };
}

function strataPrevious(req: Json): TurnResult {
  const history = Array.isArray(req["history"]) ? (req["history"] as unknown[]) : [];
  let last = -1;
  for (let i = history.length - 1; i >= 0; i--) if (roleOf(history[i]) === "assistant") { last = i; break; }
  if (last === -1) return { ok: false, reason: "The history has no assistant reply, so there is no earlier turn to rebuild." };
  let start = last;
  while (start > 0 && roleOf(history[start - 1]) !== "assistant") start--;
  const input = history.slice(start, last);
  if (input.length === 0) return { ok: false, reason: "The last assistant reply has no user message before it." };
  const { toolResults: _t, ...rest } = req;
  return { ok: true, text: pretty({ ...rest, history: history.slice(0, start), input: input.length === 1 ? input[0] : input }) };
}

/** The request one turn later: this turn's reply and a placeholder next input appended. */
export function nextTurnText(report: InspectionReport, currentJson: unknown): TurnResult {
  try {
    if (report.format === "strata") {
      if (typeof currentJson !== "object" || currentJson === null) return { ok: false, reason: "The input is not a JSON object." };
      return strataNext(currentJson as Json);
    }
    if (!report.request) return { ok: false, reason: "The request could not be normalized." };
    const r = report.request;
    return { ok: true, text: pretty(toWire(report.format, { ...r, messages: [...r.messages, text("assistant", SIMULATED_REPLY), text("user", SIMULATED_NEXT_INPUT)] })) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/** The request one turn earlier: everything from the last assistant reply on removed. */
export function previousTurnText(report: InspectionReport, currentJson: unknown): TurnResult {
  try {
    if (report.format === "strata") {
      if (typeof currentJson !== "object" || currentJson === null) return { ok: false, reason: "The input is not a JSON object." };
      return strataPrevious(currentJson as Json);
    }
    if (!report.request) return { ok: false, reason: "The request could not be normalized." };
    const r = report.request;
    const last = r.messages.map((m) => m.role).lastIndexOf("assistant");
    if (last <= 0) return { ok: false, reason: "The request has no assistant reply, so there is no earlier turn to rebuild." };
    return { ok: true, text: pretty(toWire(report.format, { ...r, messages: r.messages.slice(0, last) })) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}
