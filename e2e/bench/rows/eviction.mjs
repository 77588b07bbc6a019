// Our context-budget eviction vs LangChain.js `trimMessages`: same history, same ÷4 counter over
// the same text, same budget, strategy "last", tool exchanges kept whole on both sides.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages } from "@langchain/core/messages";
import { BENCH_MODEL, CURRENT_INPUT, SYSTEM_INSTRUCTIONS, generateHistory } from "../inputs.mjs";
import { measure } from "../measure.mjs";
import { formatBytes, formatCount } from "../table.mjs";
import { divideBy4, missing, notAvailable, ratioRow, tokensOf } from "./common.mjs";

const text = (content) => ({ type: "text", text: content });

/** Strata messages → LangChain messages carrying the same measured text. */
export function toLangChain(messages) {
  return messages.map((m, i) => {
    const id = `m${i}`;
    const body = m.content
      .filter((b) => b.type === "text")
      .map((b) => b.text)
      .join("\n");
    if (m.role === "system") return new SystemMessage({ id, content: body });
    if (m.role === "user") return new HumanMessage({ id, content: body });
    if (m.role === "tool") {
      const r = m.content[0];
      return new ToolMessage({ id, content: JSON.stringify(r.result), tool_call_id: r.toolCallId, name: r.name });
    }
    const calls = m.content
      .filter((b) => b.type === "tool_call")
      .map((c) => ({ id: c.id, name: c.name, args: c.arguments, type: "tool_call" }));
    return new AIMessage({ id, content: body, tool_calls: calls });
  });
}

/** Strata's measured text (core/assembly/context-measure.ts) of a LangChain message. */
function lcMeasuredText(m) {
  const parts = [];
  if (typeof m.content === "string" && m.content !== "") parts.push(m.content);
  for (const c of m.tool_calls ?? []) parts.push(`${c.name}(${JSON.stringify(c.args)})`);
  return parts.join("\n");
}

/**
 * The ÷4 counter for `trimMessages`, memoized by message id: each message's text is measured
 * once, the most favourable setup for LangChain (its algorithm calls the counter on ever-shorter
 * slices of the whole list).
 */
function memoCounter() {
  const memo = new Map();
  return (msgs) => {
    let sum = 0;
    for (const m of msgs) {
      let t = memo.get(m.id);
      if (t === undefined) memo.set(m.id, (t = divideBy4(lcMeasuredText(m))));
      sum += t;
    }
    return sum;
  };
}

/** LangChain's recipe for a valid chat after trimming: keep the system message, start on a human turn. */
const trimOptions = (maxTokens) => ({
  maxTokens,
  tokenCounter: memoCounter(),
  strategy: "last",
  includeSystem: true,
  startOn: "human",
});

export function setup(count) {
  const history = generateHistory(count, { seed: 21 });
  const system = { role: "system", content: [text(SYSTEM_INSTRUCTIONS)] };
  const input = { role: "user", content: [text(CURRENT_INPUT)] };
  const all = [system, ...history, input];
  const budget = Math.floor(tokensOf(all) / 2);
  const items = [
    { message: system, source: "instructions" },
    ...history.map((message, i) => ({ message, source: `history:${i}` })),
    { message: input, source: "input" },
  ];
  return { history, all, budget, items, lc: toLangChain(all) };
}

/** Our eviction: `applyContextBudget` on the sourced messages (or whole assembly when it is not exported). */
function ours(core, s) {
  if (typeof core.applyContextBudget === "function") {
    return {
      fn: () => core.applyContextBudget({ items: s.items, budget: { maxInputTokens: s.budget } }),
      api: "`applyContextBudget`",
    };
  }
  const options = {
    model: BENCH_MODEL,
    input: CURRENT_INPUT,
    systemInstructions: SYSTEM_INSTRUCTIONS,
    history: s.history,
    contextBudget: { maxInputTokens: s.budget },
  };
  return {
    fn: () => core.assembleProviderInput(options),
    async: true,
    api: "`assembleProviderInput` + `contextBudget`",
  };
}

/** Where each side's kept history starts, and why the counts differ. */
function keptNote(s, count, keptItems, lcKept, lcRaw) {
  const oursIdx = keptItems.filter((it) => it.source.startsWith("history:")).map((it) => Number(it.source.slice(8)));
  const lcIdx = lcKept
    .filter((m) => m.getType() !== "system" && m.id !== `m${s.all.length - 1}`)
    .map((m) => Number(m.id.slice(1)) - 1);
  const contiguous = (idx) =>
    idx.every((v, i) => i === 0 || v === idx[i - 1] + 1) && idx.at(-1) === s.history.length - 1;
  const describe = (i) => {
    const m = s.history[i];
    if (!m) return "nothing";
    const calls = m.content.filter((b) => b.type === "tool_call").length;
    return `#${i} (${m.role}${calls > 0 ? ` with ${calls} tool call${calls > 1 ? "s" : ""}` : ""})`;
  };
  const rawFirst = lcRaw.find((m) => m.getType() !== "system");
  const orphan = firstOrphan(lcRaw);
  return (
    `${formatCount(count)} msgs: both keep a ${contiguous(oursIdx) && contiguous(lcIdx) ? "contiguous suffix" : "NON-contiguous selection (unexpected)"} of the history. ` +
    `Strata keeps ${formatCount(oursIdx.length)} from ${describe(oursIdx[0])}: it drops whole units oldest-first (a user turn, an assistant turn, or an assistant tool call with its results) while the total is over budget. ` +
    `LangChain keeps ${formatCount(lcIdx.length)} from ${describe(lcIdx[0])}. Without \`startOn\` its per-message cut keeps ${formatCount(lcRaw.length - 2)}, starting with ${rawFirst ? `a ${rawFirst.getType()} message` : "nothing"}` +
    (orphan >= 0
      ? " — an orphan tool result whose call was trimmed (the invalid-history bug Strata's unit eviction rules out)"
      : "") +
    `; \`startOn: "human"\` then drops the ${formatCount(lcRaw.length - lcKept.length)} message(s) before the first kept human turn` +
    (oursIdx.length === lcRaw.length - 2 ? ", which is the whole difference." : ".")
  );
}

/** Index of the first orphan tool message (a tool result whose call was trimmed), or -1. */
function firstOrphan(messages) {
  const open = new Set();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    for (const c of m.tool_calls ?? []) open.add(c.id);
    if (m.tool_call_id !== undefined && !open.has(m.tool_call_id)) return i;
  }
  return -1;
}

export async function run({ core, quick }) {
  const plans = quick
    ? [[2000, { rounds: 1, iterations: 5, warmup: 2 }]]
    : [
        [2000, { rounds: 3, iterations: 8, warmup: 3 }],
        [10000, { rounds: 3, iterations: 2, warmup: 1 }],
      ];
  const rows = [];
  for (const [count, plan] of plans) rows.push(await row(core, count, plan));
  return rows;
}

async function row(core, count, plan) {
  if (missing(core, ["assembleProviderInput", "applyContextBudget"]).length === 2) {
    return notAvailable("Eviction", "vs LangChain `trimMessages`", `${formatCount(count)} msgs`, [
      "applyContextBudget",
    ]);
  }
  const s = setup(count);
  if (typeof core.messageMeasureText === "function") {
    const theirs = s.all.reduce((n, m) => n + divideBy4(core.messageMeasureText(m)), 0);
    if (theirs !== tokensOf(s.all))
      throw new Error(
        "eviction bench: the LangChain counter no longer measures the text Strata measures (core/assembly/context-measure.ts changed).",
      );
  }
  const subject = ours(core, s);
  const lcKept = await trimMessages(s.lc, trimOptions(s.budget));
  const lcRaw = await trimMessages(s.lc, { ...trimOptions(s.budget), startOn: undefined });
  const result = await subject.fn();
  const keptItems = result.items ?? result.messages.map((message) => ({ message, source: "?" }));
  const stats = await measure(
    {
      strata: subject.async ? { fn: subject.fn, async: true } : subject.fn,
      langchain: { fn: () => trimMessages(s.lc, trimOptions(s.budget)), async: true },
    },
    plan,
  );
  const oursKept = keptItems.length - 2;
  const lcHistory = lcKept.length - 2;
  return ratioRow({
    group: "Eviction",
    name: `${subject.api} vs LangChain \`trimMessages\``,
    input: `${formatCount(count)} msgs · ${formatBytes(JSON.stringify(s.history).length)} · budget ${formatCount(s.budget)} tokens (÷4) · kept: Strata ${formatCount(oursKept)}, LangChain ${formatCount(lcHistory)}`,
    stats,
    subjectKey: "strata",
    baselineKey: "langchain",
    baselineName: '`trimMessages` (strategy "last", includeSystem, startOn "human", memoized ÷4 counter)',
    goal: { max: 0.2, text: "≤ 0.2×" },
    note: keptNote(s, count, keptItems, lcKept, lcRaw),
    profile: "eviction",
  });
}

export const profiles = {
  eviction: async ({ core }) => ours(core, setup(2000)).fn,
  "eviction-langchain": async () => {
    const s = setup(2000);
    return () => trimMessages(s.lc, trimOptions(s.budget));
  },
};
