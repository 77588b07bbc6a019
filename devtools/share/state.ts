import * as z from "zod";
import { PROMPT_TIERS } from "../../core/composer/index.ts";
import { VIEW_IDS } from "../routing/routes.ts";
import { ESTIMATORS, LAYOUTS, PROVIDER_CHOICES, type Settings } from "../store/settings.ts";
import { compressText, decompressText, ShareDecodeError } from "./codec.ts";

/** Browsers cut URLs around 2 MB; a longer link would silently lose the tail. */
export const MAX_SHARE_URL_CHARS = 2_000_000;

const cap = (n: number) => z.number().int().min(1).max(n).nullable();

/** Everything a share link carries. Validated on the way in: the link is untrusted input. */
export const ShareState = z.strictObject({
  v: z.literal(1),
  current: z.string(),
  previous: z.string(),
  /** The provider's response to the request (predicted vs actual usage). Absent in older links. */
  response: z.string().optional(),
  source: z.string().max(300),
  view: z.enum(VIEW_IDS),
  settings: z.strictObject({
    provider: z.enum(PROVIDER_CHOICES),
    model: z.string().max(200),
    layout: z.enum(LAYOUTS).nullable(),
    maxInputTokens: cap(1e9),
    maxInputBytes: cap(1e10),
    // Links made before the counter say "default" (÷4) or "gpt-tokenizer": both open with the counter.
    estimator: z.preprocess((v) => (v === "default" || v === "gpt-tokenizer" ? "counted" : v), z.enum(ESTIMATORS)),
  }),
  tierBudget: z.number().int().min(0).max(1e10).nullable(),
  /** Tiers given to a wire request's system prompt sections (Tier gating), by section id. Absent in older links. */
  tiers: z
    .record(z.string().max(200), z.enum(PROMPT_TIERS))
    .refine((r) => Object.keys(r).length <= 10_000, "at most 10,000 sections")
    .optional(),
});
export type ShareState = z.infer<typeof ShareState>;

// Compile-time check: the share schema covers every setting.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const settingsCovered: Exact<ShareState["settings"], Settings> = true;
void settingsCovered;

/** Lists every problem with its path, e.g. `settings.layout: Invalid option`. */
export function describeZodIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join(".") : "(root)"}: ${i.message}`).join("; ");
}

export const encodeShareState = (state: ShareState): Promise<string> => compressText(JSON.stringify(state));

export async function decodeShareState(encoded: string): Promise<ShareState> {
  const text = await decompressText(encoded);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ShareDecodeError("The link's data is not JSON.", { cause });
  }
  const result = ShareState.safeParse(value);
  if (!result.success)
    throw new ShareDecodeError(`The link's data has the wrong shape: ${describeZodIssues(result.error)}`);
  return result.data;
}
