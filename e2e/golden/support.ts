/** Shared shapes and helpers for the golden corpus (see corpus.ts). */
export interface GoldenCase {
  /** Unique, stable, `area/what` — the key in hashes.json. */
  readonly name: string;
  /** The output whose UTF-8 bytes are hashed. */
  readonly output: () => string | Promise<string>;
}

/** JSON text of a value: key order as produced (the order is part of the output). */
export const json = (value: unknown): string => JSON.stringify(value, null, 1);

/**
 * Runs `fn`; a thrown error becomes its class, `code`, message and own enumerable fields,
 * so error wording and structured details are pinned like any other output.
 */
export async function outcome(fn: () => unknown): Promise<string> {
  try {
    return `ok ${json(await fn())}`;
  } catch (error) {
    if (!(error instanceof Error)) return `threw ${json(error)}`;
    const fields: Record<string, unknown> = {};
    for (const key of Object.keys(error).sort()) fields[key] = (error as unknown as Record<string, unknown>)[key];
    return `threw ${error.name}: ${error.message}\n${json(fields)}`;
  }
}

/** Builds cases from a table: `[name, () => output]`. */
export const cases = (
  area: string,
  rows: readonly (readonly [string, () => string | Promise<string>])[],
): GoldenCase[] => rows.map(([name, output]) => ({ name: `${area}/${name}`, output }));
