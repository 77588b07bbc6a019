/**
 * Interleaved conversations, told apart. A session (a HAR of an agent, a proxy log) mixes several
 * conversations; each turn is put in the thread it continues:
 *
 * 1. Only threads with the same provider, model and partition key are candidates: caches are per
 *    model, and a `prompt_cache_key` or user id (`metadata.user_id`, `user`, `safety_identifier`)
 *    names whose conversation it is.
 * 2. Among them, by the turn's non-system messages against each thread's last turn (system prompt
 *    and tools are left out, so a turn that busts the cache by changing them stays in its thread):
 *    the thread whose last turn's messages it starts with (appended, identical); else one whose
 *    history it continues after dropping messages from the front (a sliding window, up to
 *    `MAX_SHIFT` messages); else the one it shares the most leading messages with (an edit).
 *    Ties go to the thread that was active last.
 * 3. Otherwise it starts a thread.
 *
 * Messages are compared by their segments' hashes (the first 16 hex digits of each), so a
 * hash-only session is threaded exactly like the session it was made from.
 */
import type { Turn } from "../cache/compare.ts";
import type { CacheProvider } from "../cache/types.ts";

/** How many messages a sliding history window may drop at once and still be recognised. */
export const MAX_SHIFT = 8;

/** One key per non-system message: the hashes of its header and blocks. */
export function messageKeys(turn: Turn): string[] {
  const keys: string[] = [];
  let current = -1;
  for (const s of turn.segments) {
    if (s.messageIndex === null || s.role === "system") continue;
    if (s.messageIndex !== current) {
      keys.push("");
      current = s.messageIndex;
    }
    keys[keys.length - 1] += s.sha256.slice(0, 16);
  }
  return keys;
}

/** The first segment's hash of a turn without conversation messages (system prompt and tools only). */
const bareKey = (turn: Turn) => `bare:${turn.segments[0]?.sha256.slice(0, 16) ?? ""}`;

export interface ThreadLike {
  readonly id: string;
  readonly namespace: string;
  /** Entry index of the thread's last turn (recency for ties). */
  lastEntry: number;
  /** Message keys of the thread's last turn. */
  lastKeys: readonly string[];
  /** Index keys the thread is filed under. */
  filed: readonly string[];
}

/** The namespace of a turn: provider, model and partition key. */
export const namespaceOf = (provider: CacheProvider, model: string, key: string | null) =>
  `${provider}\u0000${model}\u0000${key ?? ""}`;

/** Relation of `next`'s messages to a thread's last turn: a rank (3 continues, 2 shifted, 1 shares) and a length. */
export function relation(last: readonly string[], next: readonly string[]): readonly [number, number] {
  if (next.length === 0) return last.length === 0 ? [3, 0] : [0, 0];
  let k = 0;
  while (k < last.length && k < next.length && last[k] === next[k]) k++;
  if (k === last.length) return [3, k];
  for (let d = 1; d <= MAX_SHIFT && d < last.length; d++) {
    if (last[d] !== next[0]) continue;
    let i = 0;
    while (d + i < last.length && i < next.length && last[d + i] === next[i]) i++;
    if (d + i === last.length) return [2, i];
  }
  return k > 0 ? [1, k] : [0, 0];
}

/** Threads filed by namespace and by their last turn's first messages. */
export class ThreadIndex<T extends ThreadLike> {
  private readonly filed = new Map<string, Set<T>>();

  private indexKeys(namespace: string, keys: readonly string[], turn: Turn): string[] {
    if (keys.length === 0) return [`${namespace}\u0000${bareKey(turn)}`];
    const out = new Set<string>();
    for (let i = 0; i <= MAX_SHIFT && i < keys.length; i++) out.add(`${namespace}\u0000${keys[i]}`);
    return [...out];
  }

  /** The thread `turn` continues, or null (see the module comment). */
  find(namespace: string, keys: readonly string[], turn: Turn): T | null {
    const lookup = `${namespace}\u0000${keys.length === 0 ? bareKey(turn) : keys[0]}`;
    let best: T | null = null;
    let bestRank = 0;
    let bestLength = -1;
    for (const t of this.filed.get(lookup) ?? []) {
      const [rank, length] = relation(t.lastKeys, keys);
      if (rank === 0) continue;
      const better =
        rank > bestRank ||
        (rank === bestRank && length > bestLength) ||
        (rank === bestRank && length === bestLength && best !== null && t.lastEntry > best.lastEntry);
      if (better) {
        best = t;
        bestRank = rank;
        bestLength = length;
      }
    }
    return best;
  }

  /** Files `thread` under its new last turn. */
  update(thread: T, keys: readonly string[], turn: Turn, entry: number): void {
    for (const k of thread.filed) this.filed.get(k)?.delete(thread);
    const next = this.indexKeys(thread.namespace, keys, turn);
    for (const k of next) {
      let set = this.filed.get(k);
      if (!set) this.filed.set(k, (set = new Set()));
      set.add(thread);
    }
    for (const k of thread.filed) if (this.filed.get(k)?.size === 0) this.filed.delete(k);
    thread.filed = next;
    thread.lastKeys = keys;
    thread.lastEntry = entry;
  }
}
