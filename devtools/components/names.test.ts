// The `@ts-expect-error` lines are the test that matters: `npx tsc -p tsconfig.json --noEmit`
// (in `npm run check`) fails if a map or list below would accept a core union with a member
// added, i.e. if a new cause, tier, format, provider, layout, omission kind, segment kind or
// history issue code could reach the page without a label.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  CONTEXT_BUDGET_OMISSION_KINDS,
  INPUT_ASSEMBLY_LAYOUTS,
  type ContextBudgetOmissionKind,
  type InputAssemblyLayout,
} from "../../core/assembly/index.ts";
import {
  CACHE_PROVIDERS,
  DIVERGENCE_CAUSES,
  type CacheProvider,
  type DivergenceCause,
  type SegmentKind,
} from "../../core/cache/index.ts";
import { PROMPT_TIERS, type PromptTier } from "../../core/composer/index.ts";
import { HISTORY_ISSUE_CODES, type HistoryIssueCode } from "../../core/conversation/index.ts";
import { REQUEST_FORMATS, type RequestFormat } from "../../core/request/index.ts";
import type { TemplateVolatility } from "../../core/templates/index.ts";
import { LAYOUTS, PROVIDER_CHOICES } from "../store/settings.ts";
import { allOf, type Labels } from "./closedSets.ts";
import {
  CAUSE_LABELS,
  CAUSE_TEXT,
  droppedKindText,
  FORMAT_NAMES,
  formatName,
  HISTORY_ISSUE_TEXT,
  historyIssueText,
  OMISSION_TEXT,
  PROVIDER_NAMES,
  TIER_TEXT,
  VOLATILITY_LABELS,
} from "./names.ts";
import { PROVENANCE_KINDS, PROVENANCE_LABELS, type ProvenanceKind } from "./provenance.ts";

/** A core union as it would be once core adds a member. */
type Grown<T extends string> = T | "added_in_core";

const sorted = (keys: readonly string[]) => [...keys].sort();

describe("labels keyed by core's closed sets", () => {
  const maps: readonly [string, Readonly<Record<string, string>>, readonly string[]][] = [
    ["FORMAT_NAMES", FORMAT_NAMES, REQUEST_FORMATS],
    ["PROVIDER_NAMES", PROVIDER_NAMES, CACHE_PROVIDERS],
    ["CAUSE_TEXT", CAUSE_TEXT, DIVERGENCE_CAUSES],
    ["CAUSE_LABELS", CAUSE_LABELS, DIVERGENCE_CAUSES],
    ["TIER_TEXT", TIER_TEXT, PROMPT_TIERS],
    ["OMISSION_TEXT", OMISSION_TEXT, CONTEXT_BUDGET_OMISSION_KINDS],
    ["HISTORY_ISSUE_TEXT", HISTORY_ISSUE_TEXT, Object.values(HISTORY_ISSUE_CODES)],
  ];

  it.each(maps)("%s has a non-empty label for exactly the members core lists", (_name, map, members) => {
    expect(sorted(Object.keys(map))).toEqual(sorted(members));
    for (const label of Object.values(map)) expect(label.trim()).not.toBe("");
  });

  it("offers every core layout and provider in the header", () => {
    expect(sorted(LAYOUTS)).toEqual(sorted(INPUT_ASSEMBLY_LAYOUTS));
    expect(PROVIDER_CHOICES).toEqual(["auto", ...CACHE_PROVIDERS]);
  });

  it("fails to compile when core grows a union the page labels", () => {
    expectTypeOf(FORMAT_NAMES).toEqualTypeOf<Labels<RequestFormat>>();
    expectTypeOf(CAUSE_LABELS).toEqualTypeOf<Labels<DivergenceCause>>();
    // @ts-expect-error a new request format has no name
    const format: Labels<Grown<RequestFormat>> = FORMAT_NAMES;
    // @ts-expect-error a new provider has no name
    const provider: Labels<Grown<CacheProvider>> = PROVIDER_NAMES;
    // @ts-expect-error a new divergence cause has no words
    const causeText: Labels<Grown<DivergenceCause>> = CAUSE_TEXT;
    // @ts-expect-error a new divergence cause has no label
    const causeLabel: Labels<Grown<DivergenceCause>> = CAUSE_LABELS;
    // @ts-expect-error a new tier has no rule text
    const tier: Labels<Grown<PromptTier>> = TIER_TEXT;
    // @ts-expect-error a new omission kind has no text
    const omission: Labels<Grown<ContextBudgetOmissionKind>> = OMISSION_TEXT;
    // @ts-expect-error a new history issue code has no rule text
    const history: Labels<Grown<HistoryIssueCode>> = HISTORY_ISSUE_TEXT;
    // @ts-expect-error a new volatility has no label
    const volatility: Labels<Grown<TemplateVolatility>> = VOLATILITY_LABELS;
    // @ts-expect-error a new layout is missing from the header's toggle
    const layouts = allOf<Grown<InputAssemblyLayout>>()(LAYOUTS);
    // @ts-expect-error a new segment kind is missing from the bundle schema's list
    const segmentKinds = allOf<Grown<SegmentKind>>()(["tool", "tool_choice", "message", "block"]);
    expect([
      format,
      provider,
      causeText,
      causeLabel,
      tier,
      omission,
      history,
      volatility,
      layouts,
      segmentKinds,
    ]).toHaveLength(10);
  });

  it("derives provenance kinds from core's prompt sources", () => {
    expect(PROVENANCE_KINDS).toHaveLength(Object.keys(PROVENANCE_LABELS).length);
    // @ts-expect-error `resource` is drawn as an attachment, not a kind of its own
    const resource: ProvenanceKind = "resource";
    // @ts-expect-error a kind core's PromptSource does not have
    const invented: ProvenanceKind = "invented";
    expect([resource, invented]).toHaveLength(2);
  });
});

describe("labels for strings the report types loosely", () => {
  it("names a known format and shows an unknown one as given", () => {
    expect(formatName("openai-chat")).toBe("OpenAI Chat Completions");
    expect(formatName("some-future-format")).toBe("some-future-format");
  });

  it("explains a history issue code by its rule, and nothing for an unknown code", () => {
    expect(historyIssueText(HISTORY_ISSUE_CODES.orphanToolResponse)).toBe(HISTORY_ISSUE_TEXT.orphan_tool_response);
    expect(historyIssueText("no_such_code")).toBeUndefined();
  });

  it("explains a dropped item's kind whether it is a tier or an omission kind", () => {
    expect(droppedKindText("informational")).toBe(TIER_TEXT.informational);
    expect(droppedKindText("tool_results")).toBe(OMISSION_TEXT.tool_results);
    expect(droppedKindText("toString")).toBeUndefined();
  });
});
