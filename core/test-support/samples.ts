/**
 * The sample index: what public/samples/index.json lists, with each sample's data.
 * e2e/samples/write-samples.mjs writes the files; `--check` verifies they match.
 */
import { assemblySample } from "./samples-assembly.ts";
import { badSamples } from "./samples-bad.ts";
import { conversationTurns } from "./samples-conversation.ts";
import { sessionSamples } from "./samples-session.ts";
import { anthropicSample, geminiSample, openaiChatSample, openaiResponsesSample } from "./samples-wire.ts";

export interface SampleEntry {
  readonly id: string;
  readonly title: string;
  readonly file: string;
  readonly format: "strata" | "openai-chat" | "openai-responses" | "anthropic" | "gemini";
  /** Id of the sample to compare against (the previous turn). */
  readonly previous?: string;
  readonly data: unknown;
}

export const samples: readonly SampleEntry[] = [
  {
    id: "openai-chat",
    title: "OpenAI Chat Completions: support agent with a tool call and an image",
    file: "openai-chat.json",
    format: "openai-chat",
    data: openaiChatSample,
  },
  {
    id: "openai-responses",
    title: "OpenAI Responses: trip planner with reasoning, a function call and web search",
    file: "openai-responses.json",
    format: "openai-responses",
    data: openaiResponsesSample,
  },
  {
    id: "anthropic",
    title: "Anthropic Messages: docs assistant with thinking, tool use and cache breakpoints",
    file: "anthropic.json",
    format: "anthropic",
    data: anthropicSample,
  },
  {
    id: "gemini",
    title: "Gemini generateContent: travel assistant with a function call and thought signature",
    file: "gemini.json",
    format: "gemini",
    data: geminiSample,
  },
  ...conversationTurns.map(
    (data, i): SampleEntry => ({
      id: `conversation-turn-${i + 1}`,
      title: [
        "Conversation turn 1: Anthropic, three cache breakpoints",
        "Conversation turn 2: appends a reply and a question (cache hit)",
        "Conversation turn 3: the system prompt's timestamp changed (cache bust)",
        "Conversation turn 4: two tools swapped places (cache bust)",
      ][i]!,
      file: `conversation-turn-${i + 1}.json`,
      format: "anthropic",
      ...(i > 0 ? { previous: `conversation-turn-${i}` } : {}),
      data,
    }),
  ),
  {
    id: "assembly-tiers",
    title: "Strata AssemblyRequest: template, tier sections over budget, context budget",
    file: "assembly-tiers.json",
    format: "strata",
    data: assemblySample,
  },
];

/** public/samples/index.json */
export function sampleIndex(): unknown[] {
  return samples.map(({ id, title, file, format, previous }) =>
    previous ? { id, title, file, format, previous } : { id, title, file, format },
  );
}

/** public/samples/bad/index.json */
export function badSampleIndex(): unknown[] {
  return badSamples.map(({ id, title, file, expect }) => ({ id, title, file, expect }));
}

/** public/samples/sessions/index.json: the bundled sessions (HAR, JSONL) the Session view can load. */
export function sessionSampleIndex(): unknown[] {
  return sessionSamples.map(({ id, title, file }) => ({ id, title, file: file.slice("sessions/".length) }));
}

/** Every file under public/samples/ with its exact content. */
export function sampleFiles(): { readonly file: string; readonly text: string }[] {
  return [
    { file: "index.json", text: `${JSON.stringify(sampleIndex(), null, 2)}\n` },
    ...samples.map((s) => ({ file: s.file, text: `${JSON.stringify(s.data, null, 2)}\n` })),
    { file: "bad/index.json", text: `${JSON.stringify(badSampleIndex(), null, 2)}\n` },
    ...badSamples.map((b) => ({ file: b.file, text: b.text })),
    { file: "sessions/index.json", text: `${JSON.stringify(sessionSampleIndex(), null, 2)}\n` },
    ...sessionSamples.map((s) => ({ file: s.file, text: s.text })),
  ];
}
