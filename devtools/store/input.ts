import { create } from "zustand";

/** Which input slot an action targets: the request under study, or the previous turn it is compared with. */
export type Slot = "current" | "previous";

export interface InputState {
  readonly current: string;
  readonly previous: string;
  /** Where the current text came from, shown to the user. */
  readonly source: string;
  /** Where the previous-turn text came from. */
  readonly previousSource: string;
  /** The provider's response to the current request (JSON body, SSE text or its usage object), or empty. */
  readonly response: string;
  readonly responseSource: string;
  /** Bumped on every change of a slot: inspection results are keyed by these, never by the (possibly 5 MB) text. */
  readonly revision: { readonly current: number; readonly previous: number; readonly response: number };
  /** False while a share link is being decoded, so the start-up sample does not race it. */
  readonly autoloadSample: boolean;
  readonly setText: (slot: Slot, text: string, source?: string) => void;
  readonly setResponse: (text: string, source?: string) => void;
}

/** Input slots only; everything derived lives in the inspection report. */
export const useInput = create<InputState>()((set) => ({
  current: "",
  previous: "",
  source: "",
  previousSource: "",
  response: "",
  responseSource: "",
  revision: { current: 0, previous: 0, response: 0 },
  autoloadSample: true,
  setResponse: (text, source) =>
    set((s) => ({
      response: text,
      responseSource: source ?? "pasted",
      revision: { ...s.revision, response: s.revision.response + 1 },
    })),
  setText: (slot, text, source) =>
    set((s) =>
      slot === "current"
        ? { current: text, source: source ?? "pasted", revision: { ...s.revision, current: s.revision.current + 1 } }
        : {
            previous: text,
            previousSource: source ?? "pasted",
            revision: { ...s.revision, previous: s.revision.previous + 1 },
          },
    ),
}));

/** Fresh state for tests and for "clear". */
export const initialInputState = (): Pick<
  InputState,
  "current" | "previous" | "source" | "previousSource" | "response" | "responseSource" | "revision" | "autoloadSample"
> => ({
  current: "",
  previous: "",
  source: "",
  previousSource: "",
  response: "",
  responseSource: "",
  revision: { current: 0, previous: 0, response: 0 },
  autoloadSample: true,
});
