// min+gzip size of the whole core and of an app importing only assembly + composer (esbuild,
// tree-shaken), next to what a peer costs for the same job.
import { minGzipSize } from "../core-bundle.mjs";
import { formatBytes } from "../table.mjs";
import { missing } from "./common.mjs";

const size = (s) => `${formatBytes(s.gzip)} (${formatBytes(s.min)} min)`;

export async function run({ core }) {
  const full = await minGzipSize(`export * from "./core/index.ts";`);
  const peer = await minGzipSize(`export { trimMessages } from "@langchain/core/messages";`, { platform: "browser" });
  const rows = [
    {
      group: "Bundle",
      name: "full core (min+gzip)",
      input: "`export * from core/index.ts`",
      subject: size(full),
      baselineName: "peer: `trimMessages` alone from `@langchain/core/messages`",
      baseline: size(peer),
      ratio: full.gzip / peer.gzip,
    },
  ];
  const absent = missing(core, ["assembleProviderInput", "composeBudgetedPrompt"]);
  if (absent.length === 0) {
    const slim = await minGzipSize(`export { assembleProviderInput, composeBudgetedPrompt } from "./core/index.ts";`);
    rows.push({
      group: "Bundle",
      name: "assembly + composer entry (min+gzip)",
      input: "`export { assembleProviderInput, composeBudgetedPrompt }`",
      subject: size(slim),
      baselineName: "full core",
      baseline: size(full),
      ratio: slim.gzip / full.gzip,
    });
  } else {
    rows.push({
      group: "Bundle",
      name: "assembly + composer entry",
      input: "—",
      subject: `n/a (core has no ${absent.join(", ")} yet)`,
      verdict: "n/a",
    });
  }
  return rows;
}

export const profiles = {};
