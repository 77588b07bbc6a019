import { describe, expect, it } from "vitest";
import { memoizedTokenizer } from "../../tokens/tokenizer-memo.ts";
import { createOpenAITokenizer, loadOpenAIEncoding, openaiEncoding } from "./index.ts";

describe("createOpenAITokenizer", () => {
  it.each([
    ["gpt-4o", "o200k_base"],
    ["gpt-4.1-mini", "o200k_base"],
    ["gpt-5.4", "o200k_base"],
    ["o3-mini", "o200k_base"],
    ["openai/gpt-4o-2024-08-06", "o200k_base"],
    ["gpt-4", "cl100k_base"],
    ["gpt-4-0613", "cl100k_base"],
    ["gpt-4-turbo", "cl100k_base"],
    ["gpt-3.5-turbo-0125", "cl100k_base"],
  ] as const)("loads the encoding of %s: %s", async (model, encoding) => {
    expect(openaiEncoding(model)).toBe(encoding);
    expect((await createOpenAITokenizer(model)).encoding).toBe(encoding);
  });

  it("counts text as tiktoken does", async () => {
    const t = await createOpenAITokenizer("gpt-4o");
    expect(t.count("hello world")).toBe(2);
    expect(t.count("")).toBe(0);
    // o200k_base needs fewer tokens than cl100k_base for Chinese
    const zh = "这是一个用于测试的中文句子";
    expect(t.count(zh)).toBeLessThan((await createOpenAITokenizer("gpt-4")).count(zh));
  });

  it("counts special-token strings as plain text instead of throwing", async () => {
    const t = await createOpenAITokenizer("gpt-4o");
    expect(t.count("<|endoftext|>")).toBeGreaterThan(1);
    expect(t.count("<|im_start|>user<|im_sep|>")).toBeGreaterThan(3);
  });

  it("loads each encoding once and shares it", async () => {
    expect(await loadOpenAIEncoding("o200k_base")).toBe(await createOpenAITokenizer("gpt-4o-mini"));
  });

  it("is a Strata tokenizer countRequestTokens accepts", async () => {
    expect(await createOpenAITokenizer("gpt-4o")).toMatchObject({ kind: "strata-tokenizer", provider: "openai" });
  });

  it("keeps its own counts: memoizedTokenizer hands it back without a memo in front", async () => {
    for (const model of ["gpt-4o", "gpt-4"]) {
      const t = await createOpenAITokenizer(model);
      expect(memoizedTokenizer(t)).toBe(t);
    }
  });
});
