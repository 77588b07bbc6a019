import { create } from "zustand";
import type { InputAssemblyLayout } from "../../core/assembly/index.ts";
import type { PromptTier } from "../../core/composer/index.ts";
import { CACHE_PROVIDERS } from "../../core/cache/index.ts";
import { allOf } from "../components/closedSets.ts";
import type { Theme, ViewId } from "../routing/routes.ts";

/** `auto` lets core infer the provider from the format and model. */
export const PROVIDER_CHOICES = ["auto", ...CACHE_PROVIDERS] as const;
export type ProviderChoice = (typeof PROVIDER_CHOICES)[number];

/** Core's input layouts, the default (`cache_aware`) first. */
export const LAYOUTS = allOf<InputAssemblyLayout>()(["cache_aware", "legacy"]);

/**
 * `counted` = core's countRequestTokens (exact with OpenAI's tokenizer, loaded on first use, for an
 * OpenAI model; a calibrated estimate otherwise); `quarter` = the specs' ceil(UTF-16 length / 4).
 */
export const ESTIMATORS = ["counted", "quarter"] as const;
export type EstimatorChoice = (typeof ESTIMATORS)[number];

/** What shapes the inspection (sent to inspect) and what the page shows; no input text here. */
export interface Settings {
  readonly provider: ProviderChoice;
  /** Empty = the model named in the request. */
  readonly model: string;
  /** Null = the request's own `inputLayout` (else cache_aware). Only Strata assembly requests have a layout. */
  readonly layout: InputAssemblyLayout | null;
  /** Context budget caps; null = none. */
  readonly maxInputTokens: number | null;
  readonly maxInputBytes: number | null;
  readonly estimator: EstimatorChoice;
}

export interface UiState extends Settings {
  readonly view: ViewId;
  readonly theme: Theme;
  /** Tier-gating slider position in chars; null = the report's own budget. */
  readonly tierBudget: number | null;
  /** Tiers the user gave a wire request's system prompt sections, by section id (unlisted ones keep the report's). */
  readonly tierAssignments: Readonly<Record<string, PromptTier>>;
  readonly set: (
    patch: Partial<Settings & { tierBudget: number | null; tierAssignments: Readonly<Record<string, PromptTier>> }>,
  ) => void;
  readonly setView: (view: ViewId) => void;
  readonly setTheme: (theme: Theme) => void;
}

export const DEFAULT_SETTINGS: Settings = {
  provider: "auto",
  model: "",
  layout: null,
  maxInputTokens: null,
  maxInputBytes: null,
  estimator: "counted",
};

export const useUi = create<UiState>()((set) => ({
  ...DEFAULT_SETTINGS,
  view: "overview",
  theme: "light",
  tierBudget: null,
  tierAssignments: {},
  set: (patch) => set(patch),
  setView: (view) => set({ view }),
  setTheme: (theme) => set({ theme }),
}));

export const pickSettings = (s: Settings): Settings => ({
  provider: s.provider,
  model: s.model,
  layout: s.layout,
  maxInputTokens: s.maxInputTokens,
  maxInputBytes: s.maxInputBytes,
  estimator: s.estimator,
});
