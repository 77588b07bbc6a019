/**
 * A streaming scanner for one array inside a JSON document: feed the text in chunks of any size,
 * get back the raw text of each element of the array at `path` (`["log", "entries"]` for a HAR
 * file, `[]` for a top-level array) as soon as it is complete. Nothing else of the document is
 * kept, so a 200 MB HAR is read with memory for one entry at a time.
 *
 * The scanner only tracks structure (strings, nesting, the keys on the way to the array); each
 * element is checked by whoever parses it. It reports what it can tell: a closing bracket that
 * does not match, text after the document, a document that ends early (truncated) or that has no
 * array at `path`. Positions are 1-based lines and columns (UTF-16 units) of the whole text.
 */

export interface ScannedElement {
  /** 0-based position in the array. */
  readonly index: number;
  /** The element's JSON text, exactly as in the document. */
  readonly text: string;
  /** Where the element starts in the document. */
  readonly line: number;
  readonly column: number;
}

export interface ScanProblem {
  readonly code: "json_syntax" | "truncated" | "array_not_found";
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

const OBJECT = 0;
const ARRAY = 1;
/** Keys longer than this cannot be on the path; they are not kept. */
const MAX_KEY = 256;

export class JsonArrayScanner {
  private readonly path: readonly string[];
  private readonly label: string;
  /** Open containers: kind, and whether it lies on the path to the array (or is the array). */
  private readonly kinds: number[] = [];
  private readonly onPath: boolean[] = [];
  /** Last key read in each open object (null before its first key or when it was too long). */
  private readonly keys: (string | null)[] = [];
  /** Objects expecting a key next (true) or a value (false). */
  private readonly expectKey: boolean[] = [];
  private inString = false;
  private escaped = false;
  /** The string being read is a key on the path: its raw text is collected. */
  private keyParts: string[] | null = null;
  private keyLength = 0;
  private targetDepth = -1;
  private found = false;
  private done = false;
  private problem: ScanProblem | null = null;
  private line = 1;
  /** Offset of the current chunk's start in the document, and of the last line start. */
  private offset = 0;
  private lineStart = 0;
  /** The element being captured: its pieces so far, where it started, and its depth. */
  private parts: string[] | null = null;
  private captureDepth = -1;
  private captureScalar = false;
  private elementLine = 0;
  private elementColumn = 0;
  private count = 0;
  private started = false;

  constructor(path: readonly string[], label: string) {
    this.path = path;
    this.label = label;
  }

  /** Elements read so far. */
  get elements(): number {
    return this.count;
  }

  /** The first structural problem seen, if any (scanning stops there). */
  get failed(): ScanProblem | null {
    return this.problem;
  }

  private fail(code: ScanProblem["code"], message: string, at: number): void {
    this.problem ??= { code, message, line: this.line, column: this.offset + at - this.lineStart + 1 };
  }

  /** Scans the next chunk; returns the elements it completed. */
  push(chunk: string): ScannedElement[] {
    const out: ScannedElement[] = [];
    if (this.problem) return out;
    let i = 0;
    const n = chunk.length;
    if (!this.started && n > 0) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) i = 1;
    }
    // Where, in this chunk, the element being captured and the key being read began.
    let captureFrom = this.parts ? 0 : -1;
    let keyFrom = this.keyParts ? 0 : -1;
    const finishElement = (end: number) => {
      const parts = this.parts!;
      parts.push(chunk.slice(captureFrom, end));
      out.push({
        index: this.count++,
        text: parts.length === 1 ? parts[0]! : parts.join(""),
        line: this.elementLine,
        column: this.elementColumn,
      });
      this.parts = null;
      this.captureScalar = false;
      captureFrom = -1;
    };
    while (i < n) {
      if (this.inString) {
        // Tight loop over string contents: only a backslash or a quote matters.
        if (this.escaped) {
          this.escaped = false;
          i++;
        }
        while (i < n) {
          const c = chunk.charCodeAt(i);
          if (c === 34) break;
          if (c === 92) {
            if (i + 1 >= n) {
              this.escaped = true;
              i = n;
              break;
            }
            i += 2;
            continue;
          }
          i++;
        }
        if (i >= n) {
          if (this.keyParts) this.addKeyPiece(chunk.slice(keyFrom, n));
          break;
        }
        // the closing quote is at i
        this.inString = false;
        if (this.keyParts) {
          this.addKeyPiece(chunk.slice(keyFrom, i));
          this.keys[this.keys.length - 1] = this.readKey();
          keyFrom = -1;
        }
        i++;
        if (this.captureScalar && this.kinds.length === this.captureDepth) finishElement(i);
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === 10) {
        this.line++;
        this.lineStart = this.offset + i + 1;
        i++;
        continue;
      }
      if (c === 32 || c === 9 || c === 13) {
        i++;
        continue;
      }
      const depth = this.kinds.length;
      if (this.done) {
        this.fail("json_syntax", `Unexpected text after the end of the ${this.label}.`, i);
        return out;
      }
      // A scalar element ends at the next comma or closing bracket of the array.
      if (this.captureScalar && depth === this.captureDepth && (c === 44 || c === 93)) finishElement(i);
      // A value starts directly inside the target array: capture it.
      if (this.targetDepth >= 0 && depth === this.targetDepth + 1 && this.parts === null && c !== 44 && c !== 93) {
        this.parts = [];
        captureFrom = i;
        this.elementLine = this.line;
        this.elementColumn = this.offset + i - this.lineStart + 1;
        this.captureDepth = depth;
        this.captureScalar = c !== 123 && c !== 91;
      }
      if (c === 34) {
        this.inString = true;
        const top = depth - 1;
        if (top >= 0 && this.kinds[top] === OBJECT && this.expectKey[top] === true) {
          this.expectKey[top] = false;
          this.keys[top] = null;
          if (this.onPath[top] === true && depth <= this.path.length) {
            this.keyParts = [];
            this.keyLength = 0;
            keyFrom = i + 1;
          }
        }
        i++;
        continue;
      }
      if (c === 123 || c === 91) {
        let onPath = false;
        if (depth <= this.path.length && (depth === 0 || this.onPath[depth - 1] === true)) {
          onPath = depth === 0 || (this.kinds[depth - 1] === OBJECT && this.keys[depth - 1] === this.path[depth - 1]);
          // On the way down every container is an object; the last one is the array.
          if (onPath) onPath = depth === this.path.length ? c === 91 : c === 123;
        }
        if (depth === 0 && !onPath) {
          this.fail(
            "array_not_found",
            this.path.length === 0
              ? `The ${this.label} is not a JSON array.`
              : `The ${this.label} is not a JSON object, so it has no ${this.path.join(".")} array.`,
            i,
          );
          return out;
        }
        this.kinds.push(c === 123 ? OBJECT : ARRAY);
        this.onPath.push(onPath);
        this.keys.push(null);
        this.expectKey.push(c === 123);
        if (onPath && depth === this.path.length) {
          this.targetDepth = depth;
          this.found = true;
        }
        i++;
        continue;
      }
      if (c === 125 || c === 93) {
        const top = depth - 1;
        if (top < 0 || this.kinds[top] !== (c === 125 ? OBJECT : ARRAY)) {
          this.fail(
            "json_syntax",
            top < 0
              ? `Unexpected "${String.fromCharCode(c)}": nothing is open.`
              : `Unexpected "${String.fromCharCode(c)}" where the open ${this.kinds[top] === OBJECT ? "object" : "array"} should close.`,
            i,
          );
          return out;
        }
        this.kinds.pop();
        this.onPath.pop();
        this.keys.pop();
        this.expectKey.pop();
        if (top === this.targetDepth) this.targetDepth = -1;
        i++;
        if (this.parts !== null && !this.captureScalar && this.kinds.length === this.captureDepth) finishElement(i);
        if (this.kinds.length === 0) this.done = true;
        continue;
      }
      if (c === 44 && depth > 0 && this.kinds[depth - 1] === OBJECT) this.expectKey[depth - 1] = true;
      i++;
    }
    if (this.parts !== null) this.parts.push(chunk.slice(captureFrom));
    this.offset += n;
    return out;
  }

  private addKeyPiece(piece: string): void {
    this.keyLength += piece.length;
    if (this.keyLength <= MAX_KEY) this.keyParts!.push(piece);
  }

  /** The key just read, unescaped; null when it was too long to be on the path or is not valid. */
  private readKey(): string | null {
    const parts = this.keyParts!;
    this.keyParts = null;
    if (this.keyLength > MAX_KEY) return null;
    try {
      return JSON.parse(`"${parts.join("")}"`) as string;
    } catch {
      return null;
    }
  }

  /**
   * The end of the document: the first problem, if any — a structural one seen while scanning, a
   * document that ends early (`truncated`: the elements before the cut were returned), or one with
   * no array at `path`.
   */
  end(): ScanProblem | null {
    if (this.problem) return this.problem;
    const at = { line: this.line, column: this.offset - this.lineStart + 1 };
    if (!this.started || (!this.done && this.kinds.length === 0))
      return { code: "truncated", message: `The ${this.label} is empty.`, ...at };
    if (this.kinds.length > 0 || this.inString) {
      const where = this.parts
        ? `inside element ${this.count} of ${this.path.join(".") || "the array"} (which starts at line ${this.elementLine}, column ${this.elementColumn})`
        : this.found
          ? `after ${this.count} element(s) of ${this.path.join(".") || "the array"}`
          : "before the array was found";
      return {
        code: "truncated",
        message: `The ${this.label} ends early, ${where}: it was probably cut off while saving. The ${this.count} complete element(s) were read.`,
        ...at,
      };
    }
    if (!this.found)
      return {
        code: "array_not_found",
        message: `The ${this.label} has no ${this.path.join(".")} array.`,
        ...at,
      };
    return null;
  }
}
