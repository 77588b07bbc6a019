import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { type Slot, useInput } from "../store/input.ts";
import * as z from "zod";

/** public/samples/index.json: the bundled sample requests. Validated: it is data from outside the bundle. */
export const SampleEntry = z.object({
  id: z.string().min(1),
  title: z.string().min(1),
  file: z.string().regex(/^[\w./-]+\.json$/, "a relative .json path"),
  format: z.string(),
  /** The sample that is this one's previous turn (its id or file). */
  previous: z.string().optional(),
});
export type SampleEntry = z.infer<typeof SampleEntry>;

const SampleIndex = z.array(SampleEntry);

const samplesUrl = (file: string) => new URL(`samples/${file}`, document.baseURI).toString();

export async function fetchSampleText(file: string): Promise<string> {
  const response = await fetch(samplesUrl(file));
  if (!response.ok) throw new Error(`samples/${file}: HTTP ${response.status}`);
  return response.text();
}

export function useSampleIndex() {
  return useQuery({
    queryKey: ["samples"],
    queryFn: async () => SampleIndex.parse(JSON.parse(await fetchSampleText("index.json"))),
  });
}

/**
 * Loads a sample into a slot. Into the current slot, a sample that names a previous turn fills the
 * previous slot too; one that names none clears a previous turn that an earlier sample filled in.
 */
export function useLoadSample() {
  const client = useQueryClient();
  return useCallback(
    async (
      entry: SampleEntry,
      entries: readonly SampleEntry[],
      options: { readonly slot?: Slot; readonly onlyIfEmpty?: boolean } = {},
    ) => {
      const slot = options.slot ?? "current";
      const text = (file: string) =>
        client.fetchQuery({ queryKey: ["sample", file], queryFn: () => fetchSampleText(file), staleTime: Infinity });
      const body = await text(entry.file);
      const state = useInput.getState();
      if (options.onlyIfEmpty && (state[slot] !== "" || !state.autoloadSample)) return;
      if (slot !== "current") {
        state.setText(slot, body, `sample: ${entry.title}`);
        return;
      }
      const prev = previousEntry(entries, entry);
      const prevBody = prev ? await text(prev.file).catch(() => undefined) : undefined;
      // A response belongs to the request it answered: a new sample starts without one.
      if (state.response !== "") state.setResponse("", "");
      // Previous first: the current input's change is what the paste-to-rendered mark measures.
      if (prev && prevBody !== undefined) state.setText("previous", prevBody, `sample: ${prev.title}`);
      else if (state.previousSource.startsWith("sample:")) state.setText("previous", "", "");
      useInput.getState().setText("current", body, `sample: ${entry.title}`);
    },
    [client],
  );
}

/** The entry a sample names as its previous turn, by id or by file. */
export const previousEntry = (entries: readonly SampleEntry[] | undefined, entry: SampleEntry | undefined) =>
  entry?.previous === undefined
    ? undefined
    : entries?.find((e) => e.id === entry.previous || e.file === entry.previous);
