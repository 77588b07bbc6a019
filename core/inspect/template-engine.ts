/**
 * The template engine as one lazily loaded piece: the Jinja renderer for `AssemblyRequest`
 * template blocks and the report section with its volatility lint. `inspect`, `simulateNextTurn`
 * and `simulateAdjacentTurn` import it (`import()`) only for a request that has a template, so
 * everything else never loads the Jinja engine.
 */
import { type AssemblyTemplateDeadline, renderAssemblyTemplate } from "../request/assembly-options.ts";
import type { AssemblyTemplateRenderer, PreparedTemplate } from "../request/prepare-with.ts";

export { renderAssemblyTemplate } from "../request/assembly-options.ts";

/**
 * A renderer that renders each template block once, however often the inspection prepares the
 * request (both layouts, the next-turn simulation): a repeated render is the same output, and the
 * same error, as the first.
 */
export function renderOnce(deadline: AssemblyTemplateDeadline): AssemblyTemplateRenderer {
  const done = new Map<object, { readonly value: PreparedTemplate } | { readonly error: unknown }>();
  return (template) => {
    let result = done.get(template);
    if (result === undefined) {
      try {
        result = { value: renderAssemblyTemplate(template, deadline) };
      } catch (error) {
        result = { error };
      }
      done.set(template, result);
    }
    if ("error" in result) throw result.error;
    return result.value;
  };
}
export { reportTemplate } from "./report-template.ts";
