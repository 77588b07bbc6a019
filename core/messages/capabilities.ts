import { UnsupportedModalityError } from "./errors.ts";
import { blockModality } from "./build.ts";
import type { Message, ModelRef } from "./types.ts";

/**
 * Throws `UnsupportedModalityError` for the first block whose modality the model
 * does not list in `capabilities.input`. Models that declare no `input` are not checked
 * (unknown is not the same as unsupported). `text` is always accepted.
 */
export function assertMessagesSupportModelCapabilities(messages: readonly Message[], model: ModelRef): void {
  const accepted = model.capabilities?.input;
  if (accepted === undefined) return;
  for (let m = 0; m < messages.length; m++) {
    const content = messages[m]!.content;
    for (let b = 0; b < content.length; b++) {
      const modality = blockModality(content[b]!);
      if (modality === undefined || modality === "text" || accepted.includes(modality)) continue;
      throw new UnsupportedModalityError(modality, m, b, model.model, accepted);
    }
  }
}
