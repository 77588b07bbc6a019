/**
 * The switch for the readers' fast paths (`schemaIssues`, `checkJsonValue`'s clean-data walk).
 * Each fast path gives exactly the answer of the plain path it shortcuts; tests run both and
 * compare, with `withoutFastPaths` giving the plain one.
 */
let on = true;

/** Whether the fast paths are on (off inside `withoutFastPaths`). */
export const fastPathsOn = (): boolean => on;

/** Tests only: runs `fn` with every fast path off, the reference the fast paths must equal. */
export function withoutFastPaths<T>(fn: () => T): T {
  const was = on;
  on = false;
  try {
    return fn();
  } finally {
    on = was;
  }
}
