import { StrataError } from "../util/errors.ts";

/**
 * A request too large for `inspect` to analyse within bounded time and memory: more messages and
 * content blocks than `maxItems`. Thrown right after the JSON is read, before anything is built.
 */
export class InspectLimitError extends StrataError<"too_many_messages"> {
  /** Where the list that passed the limit sits (`messages`, `contents`, `input`, `messages[3].content`). */
  readonly field: string;
  /** The limit, and the count reached when it was passed (counting stops there). */
  readonly limit: number;
  readonly count: number;

  constructor(field: string, limit: number, count: number) {
    super(
      "too_many_messages",
      `${field}: the request holds more than ${limit} messages and content blocks (counted ${count} by here); inspect reads at most ${limit}: send a shorter request or raise maxItems.`,
    );
    this.name = "InspectLimitError";
    this.field = field;
    this.limit = limit;
    this.count = count;
  }
}
