/**
 * The counters of one render. Every check happens where the work happens — each loop
 * iteration, each append, each built string or list — so a limit trips as soon as it is
 * passed, not after the damage (LiquidJS learned this with two CVEs).
 */
import type { RenderDeadline, TemplateLimitName, TemplateLimits } from "./limits.ts";
import { TemplateDeadlineError, TemplateLimitError } from "./limits.ts";
import type { SourcePosition } from "./source.ts";
import type { ShapeContext } from "./values.ts";

/**
 * Units charged on top of one per evaluated node, where the library does more per item than a
 * node's worth (calibrated by the calibration test: the default maxWork takes ≤ 250 ms).
 */
export const WORK_UNITS = Object.freeze({
  /** One loop iteration: a scope, the `loop` dict of nine values, the body's block. */
  iteration: 6,
  /** One item of a loop's iterable, for which the library prepares a scope before iterating. */
  loopItem: 1,
});

/** Work between two readings of the deadline's clock (about 0.2 ms): a reading costs far more than a unit. */
const CLOCK_EVERY = 2_048;

export class RenderGuard {
  iterations = 0;
  written = 0;
  work = 0;
  depth = 0;
  /** Position of the innermost statement being rendered. */
  pos: SourcePosition | undefined = undefined;
  readonly shapes: ShapeContext;
  /** Strings already scanned for surrogates (`true`: none, so slices need no code-point array). */
  readonly plainStrings = new WeakMap<object, boolean>();

  /** Work at which the deadline's clock is read next (never, without a deadline). */
  private nextClock = Number.POSITIVE_INFINITY;
  private readonly started: number = 0;

  constructor(
    readonly limits: TemplateLimits,
    private readonly deadline?: RenderDeadline,
  ) {
    if (deadline !== undefined) {
      this.started = deadline.clock();
      this.nextClock = CLOCK_EVERY;
    }
    this.shapes = {
      maxDepth: limits.maxDepth,
      memo: new WeakMap(),
      fail: (reason) => {
        if (reason === "depth") throw this.limit("maxDepth", "A value nests too deep to print");
        throw new TypeError("Cannot print a value that contains itself (a namespace holding itself)");
      },
    };
  }

  limit(name: TemplateLimitName, message: string): TemplateLimitError {
    return new TemplateLimitError(name, this.limits[name], message, this.pos);
  }

  iterate(): void {
    if (++this.iterations > this.limits.maxLoopIterations) {
      throw this.limit("maxLoopIterations", `Loops ran more than ${this.limits.maxLoopIterations} iterations in total`);
    }
    this.charge(WORK_UNITS.iteration);
  }

  charge(units: number): void {
    this.work += units;
    if (this.work > this.limits.maxWork) {
      throw this.limit(
        "maxWork",
        `Rendering did more than ${this.limits.maxWork} units of work (loops × filters over large values)`,
      );
    }
    if (this.work >= this.nextClock) this.checkDeadline();
  }

  /** Reads the clock at the work counter's checks (every CLOCK_EVERY units, and before any large charge). */
  private checkDeadline(): void {
    const deadline = this.deadline!;
    this.nextClock = this.work + CLOCK_EVERY;
    const elapsed = deadline.clock() - this.started;
    if (elapsed > deadline.deadlineMs) throw new TemplateDeadlineError(deadline.deadlineMs, elapsed, this.pos);
  }

  /** Characters appended to the output (or to a captured block). */
  wrote(chars: number): void {
    if (chars <= 0) return;
    this.written += chars;
    if (this.written > this.limits.maxOutputChars) {
      throw this.limit("maxOutputChars", `The template writes more than ${this.limits.maxOutputChars} characters`);
    }
    this.charge(chars >>> 6);
  }

  /**
   * A string of `length` characters is about to be built (or was just built). `what` names the
   * operation; a `quoted` name is appended in quotes (`The filter "trim"`) — only when the check
   * fails, so a passing check allocates no message.
   */
  checkBuilt(length: number, what: string, quoted?: string): void {
    if (length > this.limits.maxOutputChars) {
      throw this.limit(
        "maxOutputChars",
        `${quoted === undefined ? what : `${what}"${quoted}"`} builds a string of ${length} characters`,
      );
    }
  }

  /** A list of `length` items is about to be built. */
  checkList(length: number, what: string): void {
    if (length > this.limits.maxRangeLength) {
      throw this.limit("maxRangeLength", `${what} builds a list of ${length} items`);
    }
    this.charge(length);
  }
}

/** Python `range()` with its length checked before anything is allocated. */
export function guardedRange(guard: RenderGuard) {
  return (...args: unknown[]): number[] => {
    if (args.length < 1 || args.length > 3 || !args.every((a) => typeof a === "number" && Number.isInteger(a))) {
      throw new TypeError(
        "range() takes 1 to 3 integer arguments: range(stop), range(start, stop) or range(start, stop, step)",
      );
    }
    const [a, b, c] = args as number[];
    const start = b === undefined ? 0 : a!;
    const stop = b === undefined ? a! : b;
    const step = c ?? 1;
    if (step === 0) throw new Error("range() step must not be zero");
    const length =
      step > 0 ? Math.max(0, Math.ceil((stop - start) / step)) : Math.max(0, Math.ceil((start - stop) / -step));
    if (length > guard.limits.maxRangeLength) {
      throw guard.limit("maxRangeLength", `range(${args.join(", ")}) has ${length} items`);
    }
    guard.charge(length);
    const out: number[] = new Array<number>(length);
    for (let i = 0; i < length; i++) out[i] = start + i * step;
    return out;
  };
}
