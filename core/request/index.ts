// Strata's own request format (`AssemblyRequest`) and the front door that reads it or any wire format.
export { REQUEST_FORMATS, parseRequest } from "./parse-request.ts";
export type { ParsedRequest, RequestFormat } from "./parse-request.ts";
export { prepareAssembly, tierBudgetConfig } from "./assembly-options.ts";
export type { PrepareAssemblyOptions, PreparedAssembly, PreparedTemplate, PreparedTiers } from "./assembly-options.ts";
export type {
  AssemblyRequest,
  AssemblyTemplate,
  ContextBudgetJson,
  TemplateTarget,
  TierBudgetJson,
} from "./assembly-request.ts";
