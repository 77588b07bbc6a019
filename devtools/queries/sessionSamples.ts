import { useQuery } from "@tanstack/react-query";
import * as z from "zod";

/** public/samples/sessions/index.json: the bundled sessions. Validated: it is data from outside the bundle. */
export const SessionSampleEntry = z.object({
  id: z.string().min(1),
  title: z.string().min(1),
  file: z.string().regex(/^[\w.-]+\.(har|jsonl)$/, "a .har or .jsonl file name"),
});
export type SessionSampleEntry = z.infer<typeof SessionSampleEntry>;

const url = (file: string) => new URL(`samples/sessions/${file}`, document.baseURI).toString();

/** A bundled session file, as a Blob the worker streams like a dropped file. */
export async function fetchSampleBlob(file: string): Promise<Blob> {
  const response = await fetch(url(file));
  if (!response.ok) throw new Error(`samples/sessions/${file}: HTTP ${response.status}`);
  return response.blob();
}

export function useSessionSamples() {
  return useQuery({
    queryKey: ["session-samples"],
    queryFn: async () => {
      const response = await fetch(url("index.json"));
      if (!response.ok) throw new Error(`samples/sessions/index.json: HTTP ${response.status}`);
      return z.array(SessionSampleEntry).parse(await response.json());
    },
  });
}
