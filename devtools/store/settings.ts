import { create } from "zustand";
import type { Theme, ViewId } from "../routing/routes.ts";

export const PROVIDER_CHOICES = ["auto", "openai", "anthropic", "gemini"] as const;
export type ProviderChoice = (typeof PROVIDER_CHOICES)[number];

export const LAYOUTS = ["cache_aware", "legacy"] as const;
export type LayoutChoice = (typeof LAYOUTS)[number];

/** `default` = core's ceil(UTF-16 length / 4); `gpt-tokenizer` = o200k_base BPE, loaded on first use. */
export const ESTIMATORS = ["default", "gpt-tokenizer"] as const;
export type EstimatorChoice = (typeof ESTIMATORS)[number];

/** What shapes the inspection (sent to inspect) and what the page shows; no input text here. */
export interface Settings {
  readonly provider: ProviderChoice;
  /** Empty = the model named in the request. */
  readonly model: string;
  /** Null = the request's own `inputLayout` (else cache_aware). Only Strata assembly requests have a layout. */
  readonly layout: LayoutChoice | null;
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
  readonly set: (patch: Partial<Settings & { tierBudget: number | null }>) => void;
  readonly setView: (view: ViewId) => void;
  readonly setTheme: (theme: Theme) => void;
}

export const DEFAULT_SETTINGS: Settings = {
  provider: "auto",
  model: "",
  layout: null,
  maxInputTokens: null,
  maxInputBytes: null,
  estimator: "default",
};

export const useUi = create<UiState>()((set) => ({
  ...DEFAULT_SETTINGS,
  view: "overview",
  theme: "light",
  tierBudget: null,
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
