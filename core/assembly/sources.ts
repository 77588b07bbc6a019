import type { Message } from "../messages/index.ts";

/**
 * Where an output message came from. Labels:
 * `instructions`, `context:<id>`, `skill:<name>`, `tools`, `attachment:<name>`, `resource:<uri>`,
 * `summary`, `history:<index>`, `toolResult:<toolCallId>`, `input`, `tail:<id>` (tail ids are
 * `resource:<uri>` / `skill:<name>`), and `custom` for a message Strata did not build and cannot
 * place (returned new by a custom builder or by middleware). `custom` messages are never evicted.
 */
export type PromptSource =
  | "instructions"
  | "tools"
  | "summary"
  | "input"
  | "custom"
  | `context:${string}`
  | `skill:${string}`
  | `attachment:${string}`
  | `resource:${string}`
  | `history:${number}`
  | `toolResult:${string}`
  | `tail:${string}`;

/** A message with its provenance. `id` is the host's own id for the item, when it has one (e.g. a summary id). */
export interface SourcedMessage {
  readonly message: Message;
  readonly source: PromptSource;
  readonly id?: string;
}

export function sourced(message: Message, source: PromptSource, id?: string): SourcedMessage {
  return id === undefined ? { message, source } : { message, source, id };
}

/**
 * Remembers provenance by message identity, so messages keep their label through middleware
 * and builders that pass them along. The first label recorded for an object wins; protected
 * groups (input, instructions) are recorded first, so a shared object is never made evictable.
 */
export class ProvenanceMap {
  readonly #bySource = new Map<Message, SourcedMessage>();

  record(item: SourcedMessage): void {
    if (!this.#bySource.has(item.message)) this.#bySource.set(item.message, item);
  }

  recordAll(items: readonly SourcedMessage[]): void {
    for (const item of items) this.record(item);
  }

  /** The recorded item for `message`, or a `custom` one. */
  lookup(message: Message): SourcedMessage {
    return this.#bySource.get(message) ?? { message, source: "custom" };
  }
}
