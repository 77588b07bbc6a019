import type { Slot } from "../store/input.ts";

/** Test ids: the current slot keeps the shell's ids (`request-editor`…); the previous slot prefixes `previous-`. */
export const slotTestId = (slot: Slot, id: string) => (slot === "current" ? id : `previous-${id}`);
