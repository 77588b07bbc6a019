/** Throws the signal's reason when it is aborted (the reason itself, as `AbortSignal.throwIfAborted` does). */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

/**
 * Awaits a host callback, but rejects with the signal's reason as soon as the signal aborts,
 * even if the callback never settles. The listener is removed once either side settles.
 */
export async function untilAborted<T>(work: Promise<T> | T, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  throwIfAborted(signal);
  if (!isThenable(work)) return work;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort!);
  }
}

function isThenable<T>(value: Promise<T> | T): value is Promise<T> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
