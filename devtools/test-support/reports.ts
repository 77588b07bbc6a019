/**
 * Fixed reports for component tests: the real `inspect()` run on the bundled samples
 * (public/samples/, imported as text exactly as the app fetches them). No hand-written reports.
 */
import { inspect, type InspectionReport, type InspectOptions } from "../../core/inspect/index.ts";
import anthropic from "../../public/samples/anthropic.json?raw";
import assemblyTiers from "../../public/samples/assembly-tiers.json?raw";
import turn1 from "../../public/samples/conversation-turn-1.json?raw";
import turn2 from "../../public/samples/conversation-turn-2.json?raw";
import turn3 from "../../public/samples/conversation-turn-3.json?raw";
import turn4 from "../../public/samples/conversation-turn-4.json?raw";
import gemini from "../../public/samples/gemini.json?raw";
import openaiChat from "../../public/samples/openai-chat.json?raw";
import openaiResponses from "../../public/samples/openai-responses.json?raw";
import sampleIndex from "../../public/samples/index.json?raw";

export const SAMPLE_TEXT = {
  "openai-chat": openaiChat,
  "openai-responses": openaiResponses,
  anthropic,
  gemini,
  "conversation-turn-1": turn1,
  "conversation-turn-2": turn2,
  "conversation-turn-3": turn3,
  "conversation-turn-4": turn4,
  "assembly-tiers": assemblyTiers,
} as const;
export type SampleId = keyof typeof SAMPLE_TEXT;

export const SAMPLE_INDEX_TEXT = sampleIndex;

const cache = new Map<string, Promise<InspectionReport>>();

/** `inspect(sample text, options)`, memoized per sample and options. */
export function reportFor(id: SampleId, options: InspectOptions = {}): Promise<InspectionReport> {
  const key = `${id}:${JSON.stringify(options, (_k, v: unknown) => (typeof v === "function" ? "fn" : v))}`;
  let p = cache.get(key);
  if (!p) {
    p = inspect(SAMPLE_TEXT[id], options);
    cache.set(key, p);
  }
  return p;
}

/** A conversation turn compared with the one before it, as the app does when that sample is picked. */
export const turnReport = (n: 2 | 3 | 4, options: InspectOptions = {}) =>
  reportFor(`conversation-turn-${n}`, { previous: SAMPLE_TEXT[`conversation-turn-${n - 1}` as SampleId], ...options });

/** Inspects arbitrary request text (for hostile-input and edge-case tests); still the real inspect(). */
export const reportOf = (text: string, options: InspectOptions = {}) => inspect(text, options);
