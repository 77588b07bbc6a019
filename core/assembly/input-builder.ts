import type { Message } from "../messages/index.ts";
import { buildInputGroups } from "./input-groups.ts";
import { flattenInputGroups, resolveInputLayout } from "./layouts.ts";
import type { DefaultInputBuilder } from "./types.ts";

/** Marks builders whose groups `assembleProviderInput` may build directly (and label). */
export const DEFAULT_INPUT_BUILDER: unique symbol = Symbol("strata.defaultInputBuilder");

/**
 * The default input builder: instructions, summaries, history, attachments/resources,
 * tool results and the current input, in the `inputLayout` order (`cache_aware` by default).
 * It never runs middleware: `assembleProviderInput` runs `input_assembly` exactly once,
 * after whichever builder is installed.
 */
export function createDefaultInputBuilder(): DefaultInputBuilder {
  return {
    name: "default-input",
    [DEFAULT_INPUT_BUILDER]: true,
    async build(input, context = {}): Promise<readonly Message[]> {
      const layout = resolveInputLayout(context.inputLayout);
      const groups = await buildInputGroups(input, context);
      return flattenInputGroups(groups, layout).map((item) => item.message);
    },
  } as DefaultInputBuilder;
}

export function isDefaultInputBuilder(builder: unknown): boolean {
  return (
    typeof builder === "object" &&
    builder !== null &&
    (builder as Record<symbol, unknown>)[DEFAULT_INPUT_BUILDER] === true
  );
}
