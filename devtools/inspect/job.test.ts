import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../store/settings.ts";
import { SAMPLE_TEXT } from "../test-support/reports.ts";
import { openaiModelHint } from "./estimator.ts";
import { runInspectJob, runStagedInspectJob } from "./job.ts";

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

  it("makes the whole report from the first report's inspection, as a second inspection would make it", async () => {
    const long = JSON.stringify({
      model: "gpt-4.1",
      messages: Array.from({ length: 40 }, (_, i) => ({
        role: i % 2 ? "assistant" : "user",
        content: `Turn ${i}: what a prompt cache keeps.`,
      })),
    });
    for (const j of [
      job(long),
      job(long, { estimator: "quarter" }),
      job(SAMPLE_TEXT.anthropic, { provider: "openai" }),
    ]) {
      const staged = await runStagedInspectJob(j, 5);
      expect(JSON.stringify(staged.first)).toBe(JSON.stringify(await runInspectJob(j, 5)));
      expect(JSON.stringify(staged.whole())).toBe(JSON.stringify(await runInspectJob(j)));
    }
    const staged = await runStagedInspectJob(job(long), 5);
    expect(staged.first.truncated.length).toBeGreaterThan(0);
    expect(staged.whole().truncated).toEqual([]);
    expect(staged.whole().tokens).toMatchObject({ method: "exact", encoding: "o200k_base" });
  });

  it("reads the model hint from the first model field", () => {
    expect(openaiModelHint(openaiText)).toBe("gpt-4o");
    expect(openaiModelHint(SAMPLE_TEXT.anthropic)).toBeNull();
  });
});
