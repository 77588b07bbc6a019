// renderJinjaTemplate (limits on) vs raw @huggingface/jinja on a real-looking chat template:
// parsed once and rendered N times, and parse + render each time. Two baselines: the package as
// published, and the same code as Strata runs it (core/templates/jinja/vendor: class fields assigned
// in constructors, see e2e/vendor/jinja.mjs), so the second ratio is the wrapper's own overhead.
// Strata runs two pieces of its own in place of the library's (the library's output word for word,
// see the README): the lexer (core/templates/jinja/lexer.ts, ~5x faster) and `tojson` without
// arguments (compactJson), which this template uses on every tool. So these rows are Strata's net
// cost against the library's code: its guards (~35% of a render of this template, measured by
// taking them out) less what those two pieces save.
import { Template } from "@huggingface/jinja";
import { Template as VendoredTemplate } from "../../../core/templates/jinja/vendor/huggingface-jinja.js";
import { CHAT_TEMPLATE, generateTemplateArgs } from "../inputs.mjs";
import { measure } from "../measure.mjs";
import { formatBytes, formatCount } from "../table.mjs";
import { missing, notAvailable, ratioRow } from "./common.mjs";

/** Parse-once entry points Strata may export, in order of preference (see the bench report). */
const COMPILE_NAMES = ["compileJinjaTemplate", "parseJinjaTemplate", "createJinjaTemplate"];

const OPTIONS = { onError: "throw" };

/**
 * Strata's parse-once form: `compileJinjaTemplate(template, options)` and then either the
 * compiled object's own `render(args)` or `renderCompiledJinjaTemplate(compiled, args)`.
 */
export function compileFn(core) {
  const name = COMPILE_NAMES.find((n) => typeof core[n] === "function");
  if (name === undefined) return undefined;
  const renderName = typeof core.renderCompiledJinjaTemplate === "function" ? "renderCompiledJinjaTemplate" : undefined;
  return {
    name: renderName ? `${name}\` once, \`${renderName}` : name,
    compile: (src) => {
      const compiled = core[name](src, {});
      if (typeof compiled.render === "function") return compiled;
      if (!renderName) throw new Error(`${name} returned no render() and core has no renderCompiledJinjaTemplate`);
      return { render: (args) => core.renderCompiledJinjaTemplate(compiled, args) };
    },
  };
}

export async function run({ core, quick }) {
  const renders = quick ? 2000 : 10000;
  const args = generateTemplateArgs();
  const raw = new Template(CHAT_TEMPLATE);
  const expected = raw.render(args);
  const input = `ChatML-style chat template (${CHAT_TEMPLATE.length} chars) · ${args.messages.length} msgs + 5 tools → ${formatBytes(expected.length)} out`;
  const absent = missing(core, ["renderJinjaTemplate"]);
  if (absent.length > 0) {
    return [
      notAvailable("Templates", `parsed once, rendered ×${formatCount(renders)}`, input, absent),
      notAvailable("Templates", "parse + render each time", input, absent),
    ];
  }
  const once = core.renderJinjaTemplate(CHAT_TEMPLATE, args, OPTIONS);
  const same = once === expected;
  const sameNote = same
    ? ""
    : ` Strata's output differs from raw @huggingface/jinja (${once.length} vs ${expected.length} chars).`;
  const plan = quick
    ? { rounds: 1, iterations: renders, warmup: 200 }
    : { rounds: 2, iterations: renders / 2, warmup: 1000 };
  const rows = [];
  const compiled = compileFn(core);
  if (compiled === undefined) {
    rows.push({
      ...notAvailable("Templates", `parsed once, rendered ×${formatCount(renders)}`, input, [COMPILE_NAMES[0]]),
      note: "needs a parse-once API, e.g. `compileJinjaTemplate(template, options) → { render(args) }` with the same limits and errors as renderJinjaTemplate.",
    });
  } else {
    const template = compiled.compile(CHAT_TEMPLATE);
    const vendored = new VendoredTemplate(CHAT_TEMPLATE);
    const stats = await measure(
      { strata: () => template.render(args), raw: () => raw.render(args), vendored: () => vendored.render(args) },
      plan,
    );
    rows.push(
      ratioRow({
        group: "Templates",
        name: `\`${compiled.name}\` ×${formatCount(renders)} (per render)`,
        input,
        stats,
        subjectKey: "strata",
        baselineKey: "raw",
        baselineName: "raw `@huggingface/jinja`: `new Template` once, `render` ×N",
        goal: { max: 1.15, text: "≤ 1.15×" },
        profile: "templates-render",
        profileAgainst: "templates-render-raw",
        ...(same ? {} : { note: sameNote }),
      }),
      ratioRow({
        group: "Templates",
        name: `\`${compiled.name}\` ×${formatCount(renders)} (per render): the wrapper's overhead`,
        input,
        stats,
        subjectKey: "strata",
        baselineKey: "vendored",
        baselineName: "the library's code as Strata runs it (vendored): `new Template` once, `render` ×N",
        goal: { max: 1.15, text: "≤ 1.15×" },
        profile: "templates-render",
        profileAgainst: "templates-render-vendored",
        ...(same ? {} : { note: sameNote }),
      }),
    );
  }
  const stats = await measure(
    {
      strata: () => core.renderJinjaTemplate(CHAT_TEMPLATE, args, OPTIONS),
      raw: () => new Template(CHAT_TEMPLATE).render(args),
      vendored: () => new VendoredTemplate(CHAT_TEMPLATE).render(args),
    },
    quick ? { rounds: 1, iterations: 1000, warmup: 100 } : { rounds: 2, iterations: 2500, warmup: 500 },
  );
  rows.push(
    ratioRow({
      group: "Templates",
      name: "`renderJinjaTemplate` (parse + render each time)",
      input,
      stats,
      subjectKey: "strata",
      baselineKey: "raw",
      baselineName: "raw `@huggingface/jinja`: `new Template(src).render(args)`",
      goal: { max: 1.3, text: "≤ 1.3×" },
      profile: "templates-parse-render",
      ...(same ? {} : { note: sameNote }),
    }),
    ratioRow({
      group: "Templates",
      name: "`renderJinjaTemplate` (parse + render each time): the wrapper's overhead",
      input,
      stats,
      subjectKey: "strata",
      baselineKey: "vendored",
      baselineName: "the library's code as Strata runs it (vendored): `new Template(src).render(args)`",
      goal: { max: 1.3, text: "≤ 1.3×" },
      profile: "templates-parse-render",
      ...(same ? {} : { note: sameNote }),
    }),
  );
  return rows;
}

export const profiles = {
  "templates-render": async ({ core }) => {
    const args = generateTemplateArgs();
    const compiled = compileFn(core);
    if (!compiled) throw new Error("no parse-once template API in core");
    const template = compiled.compile(CHAT_TEMPLATE);
    return () => {
      for (let i = 0; i < 100; i++) template.render(args);
    };
  },
  "templates-render-raw": async () => {
    const args = generateTemplateArgs();
    const template = new Template(CHAT_TEMPLATE);
    return () => {
      for (let i = 0; i < 100; i++) template.render(args);
    };
  },
  "templates-render-vendored": async () => {
    const args = generateTemplateArgs();
    const template = new VendoredTemplate(CHAT_TEMPLATE);
    return () => {
      for (let i = 0; i < 100; i++) template.render(args);
    };
  },
  "templates-parse-render": async ({ core }) => {
    const args = generateTemplateArgs();
    return () => {
      for (let i = 0; i < 100; i++) core.renderJinjaTemplate(CHAT_TEMPLATE, args, OPTIONS);
    };
  },
};
