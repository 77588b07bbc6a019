import { count, type FormatEvidence, type Obj } from "../formats/detect.ts";
import { isObject } from "../util/plain-object.ts";

/** Fields only Strata's `AssemblyRequest` has (a wire body never has them). */
const STRATA_FIELDS = [
  "systemInstructions",
  "history",
  "inputLayout",
  "sections",
  "template",
  "toolResults",
  "contextBudget",
];

/** Decisive evidence for Strata's own format: `model` is an object, and the fields above. */
export function strataEvidence(o: Obj): FormatEvidence {
  return { decisive: (isObject(o["model"]) ? 1 : 0) + count(o, STRATA_FIELDS), shape: 0, model: 0 };
}
