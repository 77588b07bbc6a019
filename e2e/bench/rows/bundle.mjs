// min+gzip size of every entry point beside its goal (e2e/package/entries.mjs), and of an app
// importing only assembly + composer (esbuild, tree-shaken), next to what a peer costs.
import { ENTRIES, importName } from "../../package/entries.mjs";
import { minGzipSize } from "../core-bundle.mjs";
import { formatBytes } from "../table.mjs";

const size = (s) => `${formatBytes(s.gzip)} (${formatBytes(s.min)} min)`;

export async function run() {
  const rows = [];
  for (const entry of ENTRIES) {
    const s = await minGzipSize(`export * from "./${entry.file}";`);
    rows.push({
      group: "Bundle",
      name: `\`${importName(entry)}\` (min+gzip)`,
      input: entry.purpose,
      subject: size(s),
      baselineName: `goal (checked budget ${formatBytes(entry.budget)})`,
      baseline: entry.goal === undefined ? "—" : formatBytes(entry.goal),
      ...(entry.goal === undefined ? {} : { ratio: s.gzip / entry.goal, goal: { max: 1, text: "≤ 1× the goal" } }),
    });
  }
  const slim = await minGzipSize(
    `export { assembleProviderInput } from "./core/assembly/index.ts"; export { composeBudgetedPrompt } from "./core/composer/index.ts";`,
  );
  const peer = await minGzipSize(`export { trimMessages } from "@langchain/core/messages";`, { platform: "browser" });
  rows.push({
    group: "Bundle",
    name: "assembleProviderInput + composeBudgetedPrompt (min+gzip)",
    input: "tree-shaken import of the two functions",
    subject: size(slim),
    baselineName: "peer: `trimMessages` alone from `@langchain/core/messages`",
    baseline: size(peer),
    ratio: slim.gzip / peer.gzip,
  });
  return rows;
}

export const profiles = {};
