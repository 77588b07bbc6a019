import { create } from "zustand";

/** Which input slot an action targets: the request under study, or the previous turn it is compared with. */
export type Slot = "current" | "previous";

export interface InputState {
  readonly current: string;
  readonly previous: string;
  /** Where the current text came from, shown to the user. */
  readonly source: string;
  readonly setText: (slot: Slot, text: string, source?: string) => void;
}

/** Input slots and UI state only; everything derived lives in the inspection report. */
export const useInput = create<InputState>()((set) => ({
  current: "",
  previous: "",
  source: "",
  setText: (slot, text, source) => set(slot === "current" ? { current: text, source: source ?? "pasted" } : { previous: text }),
}));
