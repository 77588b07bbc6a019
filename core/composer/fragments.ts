/**
 * Core template fragment ids. They are opt-in slots: the resolver never composes a
 * fragment unless a host contributes its content with `replaceCore` (or a `mode: "replace"`
 * contribution). Strata ships the ids, not fragment text. The list only grows: a new id changes
 * nothing for hosts that do not opt in.
 */
export const ALL_CORE_FRAGMENT_TEMPLATE_IDS = [
  "core.response-stylesheet-defaults",
  "core.role-tool-allowlist-template",
  "core.async-job-lifecycle-template",
  "core.job-history-template",
  "core.rules-condensed-template",
  "core.role-condensed-template",
  "core.export-rules-template",
] as const;
export type CoreFragmentTemplateId = (typeof ALL_CORE_FRAGMENT_TEMPLATE_IDS)[number];

export function isCoreFragmentTemplateId(value: unknown): value is CoreFragmentTemplateId {
  return typeof value === "string" && (ALL_CORE_FRAGMENT_TEMPLATE_IDS as readonly string[]).includes(value);
}
