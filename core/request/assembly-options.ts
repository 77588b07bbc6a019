/**
 * `prepareAssembly(request)`: an `AssemblyRequest` → the options `assembleProviderInput` takes,
 * with the template block rendered by the Jinja engine (see `prepareAssemblyWith` for the rules).
 */
import { InvalidInputError } from "../util/errors.ts";
import type { TemplateError } from "../templates/errors.ts";
import { renderJinjaTemplate } from "../templates/jinja/render.ts";
import { buildPromptContext } from "../conversation/prompt-context.ts";
import { ISO_INSTANT } from "../conversation/system-clock.ts";
import type { AssemblyRequest } from "./assembly-request.ts";
import {
  type PrepareAssemblyOptions,
  type PreparedAssembly,
  type PreparedTemplate,
  prepareAssemblyWith,
} from "./prepare-with.ts";

export { tierBudgetConfig } from "./prepare-with.ts";
export type { PrepareAssemblyOptions, PreparedAssembly, PreparedTemplate, PreparedTiers } from "./prepare-with.ts";

/** The render's wall-clock guard (see `JinjaRenderOptions.deadlineMs`). */
export interface AssemblyTemplateDeadline {
  readonly deadlineMs?: number;
  readonly clock?: () => number;
}

/** Renders an `AssemblyRequest`'s template block as `prepareAssembly` does (also used to rebuild adjacent turns). */
export function renderAssemblyTemplate(
  t: NonNullable<AssemblyRequest["template"]>,
  deadline: AssemblyTemplateDeadline = {},
): PreparedTemplate {
  let now: Date | undefined;
  if (t.now !== undefined) {
    // Only zoned RFC 3339 reaches the Date parser: anything else parses differently per runtime or host time zone.
    now = ISO_INSTANT.test(t.now) ? new Date(t.now) : new Date(Number.NaN);
    if (Number.isNaN(now.getTime())) {
      throw new InvalidInputError(
        "template.now",
        `${JSON.stringify(t.now)} is not an ISO 8601 date-time with a zone (e.g. "2026-11-29T08:30:00Z")`,
      );
    }
  }
  const context: Record<string, unknown> = { ...buildPromptContext({ now: now ?? new Date(0), args: t.args ?? {} }) };
  if (!now) delete context.system;
  let error: TemplateError | null = null;
  const rendered = renderJinjaTemplate(t.template, context, {
    onError: "original",
    onErrorReport: (e) => {
      error = e;
    },
    ...(t.defaults ? { defaults: t.defaults } : {}),
    ...(now ? { now } : {}),
    ...(deadline.deadlineMs !== undefined ? { deadlineMs: deadline.deadlineMs } : {}),
    ...(deadline.clock ? { clock: deadline.clock } : {}),
  });
  return { source: t.template, rendered, target: t.target ?? "systemInstructions", error, hasClock: now !== undefined };
}

/** Builds the `assembleProviderInput` options for `request`; throws typed errors for bad sections or templates. */
export function prepareAssembly(request: AssemblyRequest, options: PrepareAssemblyOptions = {}): PreparedAssembly {
  return prepareAssemblyWith(request, options, renderAssemblyTemplate);
}
