import { StrataError } from "../util/errors.ts";

/** A message carries a content block whose modality the model does not declare in `capabilities.input`. */
export class UnsupportedModalityError extends StrataError<"unsupported_modality"> {
  readonly modality: string;
  readonly messageIndex: number;
  readonly blockIndex: number;

  constructor(
    modality: string,
    messageIndex: number,
    blockIndex: number,
    modelName: string,
    supported: readonly string[],
  ) {
    super(
      "unsupported_modality",
      `messages[${messageIndex}].content[${blockIndex}] is a "${modality}" block but model "${modelName}" only accepts ` +
        `${supported.length > 0 ? supported.map((m) => `"${m}"`).join(", ") : "no declared modalities"}: ` +
        `remove the block or add "${modality}" to model.capabilities.input.`,
    );
    this.name = "UnsupportedModalityError";
    this.modality = modality;
    this.messageIndex = messageIndex;
    this.blockIndex = blockIndex;
  }
}
