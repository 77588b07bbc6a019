import { InvalidInputError } from "../util/errors.ts";

/** Why a candidate section was rejected. */
export const BUDGETED_SECTION_ISSUES = [
  "not_an_object",
  "id_not_string",
  "duplicate_id",
  "content_not_string",
  "unknown_tier",
  "chars_not_number",
  "chars_not_finite",
  "chars_negative",
  "chars_fractional",
] as const;
export type BudgetedSectionIssue = (typeof BUDGETED_SECTION_ISSUES)[number];

/**
 * A composer candidate is malformed. `field` is its path (`candidates[3].chars`), `index` and
 * `sectionId` name the candidate, `issue` says what is wrong; `code` is `invalid_budgeted_section`.
 */
export class BudgetedSectionError extends InvalidInputError {
  readonly index: number;
  /** The candidate's id, when it has a string id. */
  readonly sectionId: string | undefined;
  readonly issue: BudgetedSectionIssue;

  constructor(
    index: number,
    sectionId: string | undefined,
    issue: BudgetedSectionIssue,
    property: string,
    message: string,
  ) {
    super(`candidates[${index}]${property === "" ? "" : `.${property}`}`, message, {
      code: "invalid_budgeted_section",
    });
    this.name = "BudgetedSectionError";
    this.index = index;
    this.sectionId = sectionId;
    this.issue = issue;
  }
}
