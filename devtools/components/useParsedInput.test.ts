import { cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { useUtf8Length } from "./useParsedInput.ts";

const encoded = (text: string) => new TextEncoder().encode(text).length;

describe("useUtf8Length", () => {
  const global = globalThis as { scheduler?: unknown };
  afterEach(() => {
    cleanup();
    delete global.scheduler;
  });
  // Over 2 Mi units: counted in two slices, a surrogate pair at the end.
  const big = `${"é".repeat(3 * 1024 * 1024)}a🙂`;

  it("counts in tasks of background priority where the browser has them, and drops a count under way when the text changes", async () => {
    const asked: { priority: string; signal: AbortSignal | undefined }[] = [];
    global.scheduler = {
      postTask: (step: () => void, options: SchedulerPostTaskOptions) => {
        asked.push({ priority: String(options.priority), signal: options.signal });
        return new Promise((resolve, reject) =>
          setTimeout(() => (options.signal?.aborted ? reject(options.signal.reason) : resolve(step())), 0),
        );
      },
    };
    const { result, rerender } = renderHook(({ text }) => useUtf8Length(text, true), { initialProps: { text: big } });
    expect(result.current).toBeNull();
    const next = `abc${big}`;
    rerender({ text: next });
    expect(asked[0]!.signal!.aborted).toBe(true);
    await waitFor(() => expect(result.current).toBe(encoded(next)));
    expect(asked.map((a) => a.priority)).toEqual(["background", "background", "background"]);
  });

  it("counts after timeouts without a scheduler", async () => {
    const { result } = renderHook(() => useUtf8Length(big, true));
    expect(result.current).toBeNull();
    await waitFor(() => expect(result.current).toBe(encoded(big)));
  });
});
