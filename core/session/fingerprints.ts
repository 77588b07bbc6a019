/**
 * Hash-only sessions: what `inspectSession` needs of each turn — segment kinds, sizes, token counts
 * and SHA-256 hashes, times, reported usage — without a character of prompt text, so a session can
 * be shared (a link, a bug report) and inspected again by someone who never sees the prompts.
 *
 * Turns of a conversation repeat most of their segments, so the segments are stored once, in a
 * table, and each turn lists indexes into it. Decoding rebuilds one `FingerprintBundle` per turn
 * (the same bundles `bundleFromSegments` makes, checked again where they are analyzed). The
 * partition key (a `prompt_cache_key` or user id) is replaced by the first 16 hex digits of its
 * SHA-256: it still keeps threads apart, and says nothing about the user.
 */
import type { Turn } from "../cache/compare.ts";
import type { CacheProvider, FingerprintBundle, Segment } from "../cache/types.ts";
import { CACHE_PROVIDERS } from "../cache/types.ts";
import { WIRE_FORMATS, type WireFormat } from "../formats/types.ts";
import { CONTENT_BLOCK_TYPES, ROLES } from "../messages/types.ts";
import type { Usage } from "../tokens/usage.ts";
import { InvalidInputError } from "../util/errors.ts";
import { sha256Hex } from "../util/hash.ts";
import { isObject } from "../util/plain-object.ts";
import type { EntryHints, Session, SessionEntry } from "./types.ts";

/** One distinct segment: kind, region, role, block type, byte length, tokens, hash, canonical hash (null when equal), breakpoint (0/1). */
export type FingerprintSegment = readonly [
  Segment["kind"],
  Segment["region"],
  Segment["role"],
  Segment["blockType"],
  number,
  number,
  string,
  string | null,
  0 | 1,
];

export interface FingerprintTurn {
  readonly index: number;
  readonly at: string;
  readonly format: WireFormat;
  readonly provider: CacheProvider;
  readonly model: string;
  readonly time: number | null;
  readonly usage: Usage | null;
  readonly hints: EntryHints;
  readonly automaticCaching: boolean;
  /** Indexes into `segments`, in prompt order. */
  readonly segments: readonly number[];
  /** Each segment's message index (-1 for tools and tool choice). */
  readonly messages: readonly number[];
}

export interface SessionFingerprints {
  readonly kind: "strata-session-fingerprints";
  readonly bundleVersion: 1;
  /** What the session was read from. */
  readonly source: "har" | "jsonl" | "json";
  readonly records: number;
  readonly segments: readonly FingerprintSegment[];
  readonly turns: readonly FingerprintTurn[];
}

/** A turn's segments as table rows (in prompt order) and each one's message index (-1 for tools and tool choice). */
export function segmentRows(turn: Turn): { segments: FingerprintSegment[]; messages: number[] } {
  const segments: FingerprintSegment[] = [];
  const messages: number[] = [];
  for (const s of turn.segments) {
    segments.push([
      s.kind,
      s.region,
      s.role,
      s.blockType,
      s.byteLength,
      s.tokens,
      s.sha256,
      s.canonicalSha256 === s.sha256 ? null : s.canonicalSha256,
      s.cacheBreakpoint ? 1 : 0,
    ]);
    messages.push(s.messageIndex ?? -1);
  }
  return { segments, messages };
}

/** Collects a session's fingerprints turn by turn (the analyzer feeds it when asked to). */
export class FingerprintCollector {
  private readonly table: FingerprintSegment[] = [];
  private readonly ids = new Map<string, number>();
  private readonly turns: FingerprintTurn[] = [];

  add(entry: SessionEntry, provider: CacheProvider, turn: Turn, hints: EntryHints): void {
    const rows = segmentRows(turn);
    const segments: number[] = [];
    for (const row of rows.segments) {
      const id = JSON.stringify(row);
      let n = this.ids.get(id);
      if (n === undefined) {
        n = this.table.length;
        this.table.push(row);
        this.ids.set(id, n);
      }
      segments.push(n);
    }
    this.turns.push({
      index: entry.index,
      at: entry.at,
      format: entry.format,
      provider,
      model: turn.model,
      time: entry.time,
      usage: entry.usage,
      hints: { ...hints, key: hints.key === null ? null : sha256Hex(hints.key).slice(0, 16) },
      automaticCaching: turn.automaticCaching,
      segments,
      messages: rows.messages,
    });
  }

  result(source: SessionFingerprints["source"], records: number): SessionFingerprints {
    return {
      kind: "strata-session-fingerprints",
      bundleVersion: 1,
      source,
      records,
      segments: this.table,
      turns: this.turns,
    };
  }
}

/** True when `value` says it is a hash-only session (it is checked where it is read). */
export const isSessionFingerprints = (value: unknown): value is SessionFingerprints =>
  isObject(value) && value["kind"] === "strata-session-fingerprints";

const KINDS = ["tool", "tool_choice", "message", "block"] as const;
const REGIONS = ["tools", "system", "messages"] as const;
const HEX64 = /^[0-9a-f]{64}$/;
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

function bad(path: string, expected: string): never {
  throw new InvalidInputError(
    `fingerprints.${path}`,
    `expected ${expected}: this is not a hash-only session Strata wrote.`,
  );
}

/** Checks one segment row (`at`: where it is, for the error). */
export function checkSegment(v: unknown, i: number, at = `segments[${i}]`): FingerprintSegment {
  if (!Array.isArray(v) || v.length !== 9) bad(at, "an array of 9 fields");
  const [kind, region, role, blockType, bytes, tokens, sha, canonical, bp] = v as unknown[];
  if (!(KINDS as readonly unknown[]).includes(kind)) bad(`${at}[0]`, KINDS.join(" | "));
  if (!(REGIONS as readonly unknown[]).includes(region)) bad(`${at}[1]`, REGIONS.join(" | "));
  if (role !== null && !(ROLES as readonly unknown[]).includes(role)) bad(`${at}[2]`, "null or a role");
  if (blockType !== null && !(CONTENT_BLOCK_TYPES as readonly unknown[]).includes(blockType))
    bad(`${at}[3]`, "null or a block type");
  if (!isCount(bytes)) bad(`${at}[4]`, "a byte count");
  if (!isCount(tokens)) bad(`${at}[5]`, "a token count");
  if (typeof sha !== "string" || !HEX64.test(sha)) bad(`${at}[6]`, "a SHA-256 hex digest");
  if (canonical !== null && (typeof canonical !== "string" || !HEX64.test(canonical)))
    bad(`${at}[7]`, "null or a SHA-256 hex digest");
  if (bp !== 0 && bp !== 1) bad(`${at}[8]`, "0 or 1");
  return v as unknown as FingerprintSegment;
}

export function checkUsage(v: unknown, at: string): Usage | null {
  if (v === null) return null;
  if (!isObject(v)) bad(at, "null or a usage object");
  for (const k of ["input", "cacheRead", "cacheWrite", "cacheWrite1h", "output"])
    if (!isCount(v[k])) bad(`${at}.${k}`, "a count");
  return {
    input: v["input"],
    cacheRead: v["cacheRead"],
    cacheWrite: v["cacheWrite"],
    cacheWrite1h: v["cacheWrite1h"],
    output: v["output"],
  } as Usage;
}

/** One turn → its fingerprint bundle (paths rebuilt in prompt order, offsets summed, the request hash recomputed). */
function bundleOf(t: FingerprintTurn, table: readonly FingerprintSegment[]): FingerprintBundle {
  return bundleFromRows(
    t.provider,
    t.model,
    t.automaticCaching,
    t.segments.map((id) => table[id]!),
    t.messages,
  );
}

/** Segment rows in prompt order (with their message indexes) → the fingerprint bundle they describe. */
export function bundleFromRows(
  provider: CacheProvider,
  model: string,
  automaticCaching: boolean,
  rows: readonly FingerprintSegment[],
  messages: readonly number[],
): FingerprintBundle {
  const segments: Segment[] = [];
  let offset = 0;
  let tokens = 0;
  let tool = 0;
  let block = 0;
  rows.forEach((row, i) => {
    const [kind, region, role, blockType, byteLength, segTokens, sha256, canonical, bp] = row;
    const m = messages[i]!;
    if (kind === "message") block = 0;
    const path =
      kind === "tool"
        ? `tools[${tool++}]`
        : kind === "tool_choice"
          ? `providerOptions.${provider === "gemini" ? "toolConfig" : "tool_choice"}`
          : kind === "message"
            ? `messages[${m}]`
            : `messages[${m}].content[${block++}]`;
    segments.push({
      index: i,
      path,
      kind,
      region,
      role,
      messageIndex: m < 0 ? null : m,
      blockType,
      byteOffset: offset,
      byteLength,
      tokens: segTokens,
      sha256,
      canonicalSha256: canonical ?? sha256,
      cacheBreakpoint: bp === 1,
    });
    offset += byteLength;
    tokens += segTokens;
  });
  return {
    kind: "strata-fingerprints",
    bundleVersion: 1,
    provider,
    model,
    requestSha256: sha256Hex(segments.map((s) => s.sha256).join("")),
    total: { bytes: offset, segments: segments.length, tokens },
    automaticCaching,
    segments,
  };
}

/**
 * A hash-only session (JSON value) → a `Session` whose entries carry fingerprint bundles, for
 * `inspectSession`. Every field is checked; a bad one throws `InvalidInputError` naming its path.
 */
export function fromSessionFingerprints(value: unknown): Session {
  if (!isSessionFingerprints(value)) bad("kind", '"strata-session-fingerprints"');
  const v = value as unknown as Record<string, unknown>;
  if (v["bundleVersion"] !== 1) bad("bundleVersion", "1");
  const source = v["source"];
  if (source !== "har" && source !== "jsonl" && source !== "json") bad("source", '"har", "jsonl" or "json"');
  if (!isCount(v["records"])) bad("records", "a count");
  if (!Array.isArray(v["segments"])) bad("segments", "an array");
  const table = (v["segments"] as unknown[]).map((row, i) => checkSegment(row, i));
  if (!Array.isArray(v["turns"])) bad("turns", "an array");
  const entries: SessionEntry[] = (v["turns"] as unknown[]).map((raw, i) => {
    const at = `turns[${i}]`;
    if (!isObject(raw)) bad(at, "a turn object");
    if (!isCount(raw["index"])) bad(`${at}.index`, "a count");
    if (typeof raw["at"] !== "string" || raw["at"].length > 200) bad(`${at}.at`, "a short string");
    if (!(WIRE_FORMATS as readonly unknown[]).includes(raw["format"])) bad(`${at}.format`, "a wire format");
    if (!(CACHE_PROVIDERS as readonly unknown[]).includes(raw["provider"])) bad(`${at}.provider`, "a provider");
    if (typeof raw["model"] !== "string" || raw["model"].length > 300) bad(`${at}.model`, "a model id");
    const time = raw["time"];
    if (time !== null && (typeof time !== "number" || !Number.isFinite(time))) bad(`${at}.time`, "null or a number");
    const hints = raw["hints"];
    if (!isObject(hints)) bad(`${at}.hints`, "an object");
    if (hints["key"] !== null && typeof hints["key"] !== "string") bad(`${at}.hints.key`, "null or a string");
    if (!Array.isArray(hints["ttl1h"]) || !hints["ttl1h"].every(isCount))
      bad(`${at}.hints.ttl1h`, "an array of indexes");
    if (typeof hints["retention24h"] !== "boolean") bad(`${at}.hints.retention24h`, "true or false");
    if (typeof raw["automaticCaching"] !== "boolean") bad(`${at}.automaticCaching`, "true or false");
    const segs = raw["segments"];
    const msgs = raw["messages"];
    if (!Array.isArray(segs) || !segs.every((n) => isCount(n) && n < table.length))
      bad(`${at}.segments`, `indexes below ${table.length}`);
    if (!Array.isArray(msgs) || msgs.length !== segs.length || !msgs.every((n) => n === -1 || isCount(n)))
      bad(`${at}.messages`, "one message index (or -1) per segment");
    const turn = raw as unknown as FingerprintTurn;
    return {
      index: turn.index,
      at: turn.at,
      format: turn.format,
      request: bundleOf(turn, table),
      time: turn.time,
      usage: checkUsage(raw["usage"], `${at}.usage`),
      hints: { key: turn.hints.key, ttl1h: turn.hints.ttl1h, retention24h: turn.hints.retention24h },
    };
  });
  return { kind: "fingerprints", records: v["records"] as number, entries, skipped: [], problems: [] };
}

/** `kind` of the events `createMonitoredFetch` emits (one per monitored request). */
export const MONITOR_EVENT_KIND = "strata-monitor-event";

/**
 * The hash-only part of a monitor event: the turn's segments as table rows and the cache facts its
 * hashes do not carry, so that a JSONL of events is a session `inspectSession` (and the devtools'
 * Session view) can analyze again, without a character of prompt text.
 */
export interface EventFingerprint {
  readonly format: WireFormat;
  readonly provider: CacheProvider;
  readonly model: string;
  readonly automaticCaching: boolean;
  /** Indexes of the segments whose cache marker asks for a 1-hour lifetime. */
  readonly ttl1h: readonly number[];
  readonly retention24h: boolean;
  readonly segments: readonly FingerprintSegment[];
  /** Each segment's message index (-1 for tools and tool choice). */
  readonly messages: readonly number[];
}

/** True when `value` says it is a monitor event (it is checked where it is read). */
export const isMonitorEvent = (value: unknown): value is Record<string, unknown> =>
  isObject(value) && value["kind"] === MONITOR_EVENT_KIND;

/**
 * A monitor event (JSON value) → a session entry whose request is the turn's fingerprint bundle,
 * timed by the event's `ts`, with its usage, and kept in its thread by the event's thread id; null
 * when the event carries no fingerprint (the monitor was told to leave it out). A bad field throws
 * `InvalidInputError` naming its path.
 */
export function entryFromMonitorEvent(value: unknown, index: number, at: string): SessionEntry | null {
  const fail = (path: string, expected: string): never => {
    throw new InvalidInputError(`${at}.${path}`, `expected ${expected}: this is not a monitor event Strata wrote.`);
  };
  if (!isMonitorEvent(value)) fail("kind", `"${MONITOR_EVENT_KIND}"`);
  const v = value as Record<string, unknown>;
  if (typeof v["thread"] !== "string" || v["thread"].length > 200) fail("thread", "a thread id");
  const ts = v["ts"];
  if (typeof ts !== "number" || !Number.isFinite(ts)) fail("ts", "a time in ms");
  const fp = v["fingerprint"];
  if (fp === undefined || fp === null) return null;
  if (!isObject(fp)) fail("fingerprint", "an object");
  const f = fp as Record<string, unknown>;
  if (!(WIRE_FORMATS as readonly unknown[]).includes(f["format"])) fail("fingerprint.format", "a wire format");
  if (!(CACHE_PROVIDERS as readonly unknown[]).includes(f["provider"])) fail("fingerprint.provider", "a provider");
  if (typeof f["model"] !== "string" || f["model"].length > 300) fail("fingerprint.model", "a model id");
  if (typeof f["automaticCaching"] !== "boolean") fail("fingerprint.automaticCaching", "true or false");
  if (typeof f["retention24h"] !== "boolean") fail("fingerprint.retention24h", "true or false");
  if (!Array.isArray(f["ttl1h"]) || !f["ttl1h"].every(isCount)) fail("fingerprint.ttl1h", "an array of indexes");
  if (!Array.isArray(f["segments"])) fail("fingerprint.segments", "an array of segment rows");
  const rows = (f["segments"] as unknown[]).map((row, i) => checkSegment(row, i, `${at}.fingerprint.segments[${i}]`));
  const msgs = f["messages"];
  if (!Array.isArray(msgs) || msgs.length !== rows.length || !msgs.every((n) => n === -1 || isCount(n)))
    fail("fingerprint.messages", "one message index (or -1) per segment");
  const provider = f["provider"] as CacheProvider;
  return {
    index,
    at,
    format: f["format"] as WireFormat,
    request: bundleFromRows(provider, f["model"] as string, f["automaticCaching"] as boolean, rows, msgs as number[]),
    time: ts as number,
    usage: checkUsage(v["actual"] ?? null, `${at}.actual`),
    hints: { key: v["thread"] as string, ttl1h: f["ttl1h"] as number[], retention24h: f["retention24h"] as boolean },
  };
}
