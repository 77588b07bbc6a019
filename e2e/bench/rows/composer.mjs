// composeBudgetedPrompt over many sections ÷ a plain join of the same strings.
import { generateSections } from "../inputs.mjs";
import { measure } from "../measure.mjs";
import { formatBytes, formatCount } from "../table.mjs";
import { missing, notAvailable, ratioRow } from "./common.mjs";

export function setup(count) {
  const sections = generateSections(count);
  const contents = sections.map((s) => s.content);
  const totalChars = contents.reduce((n, c) => n + c.length, 0);
  // Large enough that every section is kept: both sides join exactly the same strings.
  const config = { depth: 0, totalBudget: totalChars * 2 };
  return { sections, contents, config, totalChars };
}

export async function run({ core, quick }) {
  const count = quick ? 20000 : 100000;
  const absent = missing(core, ["composeBudgetedPrompt"]);
  if (absent.length > 0)
    return [notAvailable("Composer", "composeBudgetedPrompt", `${formatCount(count)} sections`, absent)];
  const s = setup(count);
  const check = core.composeBudgetedPrompt(s.sections, s.config);
  if (check.composed !== s.contents.join("\n\n"))
    throw new Error(
      "composer bench: the composed prompt differs from the plain join; the row would compare different work.",
    );
  const stats = await measure(
    {
      strata: () => core.composeBudgetedPrompt(s.sections, s.config),
      join: () => s.contents.join("\n\n"),
    },
    quick ? { rounds: 1, iterations: 10, warmup: 3 } : { rounds: 3, iterations: 20, warmup: 5 },
  );
  return [
    ratioRow({
      group: "Composer",
      name: "composeBudgetedPrompt",
      input: `${formatCount(count)} sections · ${formatBytes(s.totalChars)} · budget keeps all`,
      stats,
      subjectKey: "strata",
      baselineKey: "join",
      baselineName: '`contents.join("\\n\\n")`',
      goal: { max: 1.5, text: "≤ 1.5×" },
      profile: "composer",
    }),
  ];
}

export const profiles = {
  composer: async ({ core, quick }) => {
    const s = setup(quick ? 20000 : 100000);
    return () => core.composeBudgetedPrompt(s.sections, s.config);
  },
};
