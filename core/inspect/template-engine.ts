/**
 * The template engine as one lazily loaded piece: the Jinja renderer for `AssemblyRequest`
 * template blocks and the report section with its volatility lint. `inspect`, `simulateNextTurn`
 * and `simulateAdjacentTurn` import it (`import()`) only for a request that has a template, so
 * everything else never loads the Jinja engine.
 */
export { renderAssemblyTemplate } from "../request/assembly-options.ts";
export { reportTemplate } from "./report-template.ts";
