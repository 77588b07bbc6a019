import { useQuery } from "@tanstack/react-query";
import * as z from "zod";

/** public/samples/index.json: the bundled sample requests. Validated: it is data from outside the bundle. */
export const SampleEntry = z.object({
  id: z.string().min(1),
  title: z.string().min(1),
  file: z.string().regex(/^[\w./-]+\.json$/, "a relative .json path"),
  format: z.string(),
  previous: z.string().optional(),
});
export type SampleEntry = z.infer<typeof SampleEntry>;

const SampleIndex = z.array(SampleEntry);

const samplesUrl = (file: string) => new URL(`samples/${file}`, document.baseURI).toString();

async function fetchText(file: string): Promise<string> {
  const response = await fetch(samplesUrl(file));
  if (!response.ok) throw new Error(`samples/${file}: HTTP ${response.status}`);
  return response.text();
}

export function useSampleIndex() {
  return useQuery({
    queryKey: ["samples"],
    queryFn: async () => SampleIndex.parse(JSON.parse(await fetchText("index.json"))),
  });
}

export function useSampleText(file: string | undefined) {
  return useQuery({ queryKey: ["sample", file], queryFn: () => fetchText(file!), enabled: file !== undefined });
}
