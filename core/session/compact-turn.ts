/**
 * A thread's last turn, kept small between its turns: the segments' hashes in one string and their
 * numbers in typed arrays (about 90 bytes a segment instead of a few hundred for the objects), made
 * back into a `Turn` (without texts) when the thread's next turn needs it. Paths are rebuilt from
 * the segment kinds in prompt order, as segments.ts writes them.
 */
import type { Turn } from "../cache/compare.ts";
import type { CacheProvider, Segment, SegmentKind, SegmentRegion } from "../cache/types.ts";
import { CONTENT_BLOCK_TYPES, type ContentBlockType, ROLES, type Role } from "../messages/types.ts";

const KINDS: readonly SegmentKind[] = ["tool", "tool_choice", "message", "block"];
const REGIONS: readonly SegmentRegion[] = ["tools", "system", "messages"];

export interface CompactTurn {
  readonly model: string;
  readonly provider: CacheProvider;
  readonly count: number;
  /** The segments' `sha256`, concatenated (64 hex digits each). */
  readonly shas: string;
  /** `canonicalSha256` where it differs from `sha256`. */
  readonly canonical: ReadonlyMap<number, string>;
  readonly tokens: Int32Array;
  readonly bytes: Int32Array;
  /** Message index, -1 for tools and tool choice. */
  readonly message: Int32Array;
  /** kind | region << 2 | (role + 1) << 4 | breakpoint << 7; block type + 1 in `blockType`. */
  readonly codes: Uint8Array;
  readonly blockType: Uint8Array;
  readonly total: Turn["total"];
  readonly automaticCaching: boolean;
}

export function compactTurn(turn: Turn, provider: CacheProvider): CompactTurn {
  const n = turn.segments.length;
  const tokens = new Int32Array(n);
  const bytes = new Int32Array(n);
  const message = new Int32Array(n);
  const codes = new Uint8Array(n);
  const blockType = new Uint8Array(n);
  const canonical = new Map<number, string>();
  const shas: string[] = [];
  turn.segments.forEach((s, i) => {
    shas.push(s.sha256);
    if (s.canonicalSha256 !== s.sha256) canonical.set(i, s.canonicalSha256);
    tokens[i] = s.tokens;
    bytes[i] = s.byteLength;
    message[i] = s.messageIndex ?? -1;
    codes[i] =
      KINDS.indexOf(s.kind) |
      (REGIONS.indexOf(s.region) << 2) |
      ((s.role === null ? 0 : ROLES.indexOf(s.role) + 1) << 4) |
      (s.cacheBreakpoint ? 128 : 0);
    blockType[i] = s.blockType === null ? 0 : CONTENT_BLOCK_TYPES.indexOf(s.blockType) + 1;
  });
  return {
    model: turn.model,
    provider,
    count: n,
    shas: shas.join(""),
    canonical,
    tokens,
    bytes,
    message,
    codes,
    blockType,
    total: turn.total,
    automaticCaching: turn.automaticCaching,
  };
}

/** The turn again, with its segments (paths rebuilt) and no texts. */
export function expandTurn(c: CompactTurn): Turn {
  const segments: Segment[] = [];
  let offset = 0;
  let tool = 0;
  let block = 0;
  for (let i = 0; i < c.count; i++) {
    const code = c.codes[i]!;
    const kind = KINDS[code & 3]!;
    const roleCode = (code >> 4) & 7;
    const m = c.message[i]!;
    if (kind === "message") block = 0;
    const path =
      kind === "tool"
        ? `tools[${tool++}]`
        : kind === "tool_choice"
          ? `providerOptions.${c.provider === "gemini" ? "toolConfig" : "tool_choice"}`
          : kind === "message"
            ? `messages[${m}]`
            : `messages[${m}].content[${block++}]`;
    const sha256 = c.shas.slice(i * 64, i * 64 + 64);
    const bt = c.blockType[i]!;
    segments.push({
      index: i,
      path,
      kind,
      region: REGIONS[(code >> 2) & 3]!,
      role: roleCode === 0 ? null : (ROLES[roleCode - 1] as Role),
      messageIndex: m < 0 ? null : m,
      blockType: bt === 0 ? null : (CONTENT_BLOCK_TYPES[bt - 1] as ContentBlockType),
      byteOffset: offset,
      byteLength: c.bytes[i]!,
      tokens: c.tokens[i]!,
      sha256,
      canonicalSha256: c.canonical.get(i) ?? sha256,
      cacheBreakpoint: (code & 128) !== 0,
    });
    offset += c.bytes[i]!;
  }
  return { model: c.model, segments, texts: null, total: c.total, automaticCaching: c.automaticCaching };
}
