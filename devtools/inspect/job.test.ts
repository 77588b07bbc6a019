import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../store/settings.ts";
import { SAMPLE_TEXT } from "../test-support/reports.ts";
import { openaiModelHint } from "./estimator.ts";
import { runInspectJob } from "./job.ts";

const job = (input: string, patch: Partial<typeof DEFAULT_SETTINGS> = {}) => ({
  input,
  previous: "",
  response: "",
  settings: { ...DEFAULT_SETTINGS, ...patch },
});

const openaiText = JSON.stringify({
  model: "gpt-4o",
  messages: [
    { role: "system", content: "You answer in one sentence." },
    { role: "user", content: "What is a prompt cache?" },
  ],
});

describe("runInspectJob: the counter the devtools use", () => {
  it("counts an OpenAI request exactly, with the tokenizer loaded for its model", async () => {
    const report = await runInspectJob(job(openaiText));
    expect(report.tokens).toMatchObject({ method: "exact", encoding: "o200k_base", band: 0 });
    expect(report.tokens!.notes).toEqual([]);
  });

  it("gives other providers a calibrated estimate, never with OpenAI's tokenizer", async () => {
    const report = await runInspectJob(job(SAMPLE_TEXT.anthropic));
    expect(report.tokens!.method).toBe("estimate");
    expect(report.tokens!.notes.map((n) => n.code)).not.toContain("tokenizer_mismatch");
    // The provider setting says OpenAI, though the model hint would not: the report's provider decides.
    const forced = await runInspectJob(job(SAMPLE_TEXT.anthropic, { provider: "openai" }));
    expect(forced.provider).toBe("openai");
    expect(forced.tokens!.notes.map((n) => n.code)).not.toContain("tokenizer_mismatch");
  });

  it("uses chars/4 everywhere when asked, and passes the response on", async () => {
    const quarter = await runInspectJob(job(openaiText, { estimator: "quarter" }));
    expect(quarter.tokens!.counter).toBe("tokenEstimator");
    const withResponse = await runInspectJob({
      ...job(openaiText),
      response: JSON.stringify({ usage: { prompt_tokens: 25, completion_tokens: 12 } }),
    });
    expect(withResponse.usage!.actual!.input).toBe(25);
    expect(withResponse.usage!.difference!.input).toBe(25 - withResponse.tokens!.total);
  });

  it("reads the model hint from the first model field", () => {
    expect(openaiModelHint(openaiText)).toBe("gpt-4o");
    expect(openaiModelHint(SAMPLE_TEXT.anthropic)).toBeNull();
  });
});
