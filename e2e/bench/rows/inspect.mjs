// inspect() on pasted-size requests, compared with the previous turn (`previous`).
import { generateOpenAIChatTurns } from "../inputs.mjs";
import { measure } from "../measure.mjs";
import { faultNote, faultsPerCall, formatBytes, formatCount } from "../table.mjs";
import { missing, notAvailable, ratioRow } from "./common.mjs";

const MB = 1024 * 1024;
const OPTIONS = { provider: "openai" };

export async function run({ core, quick }) {
  const sizes = quick ? [1] : [1, 5];
  const absent = missing(core, ["inspect"]);
  if (absent.length > 0)
    return sizes.map((mb) => notAvailable("inspect", "with `previous`", `${mb} MB OpenAI Chat request`, absent));
  const rows = [];
  for (const mb of sizes) {
    const turns = generateOpenAIChatTurns(mb * MB);
    const options = { ...OPTIONS, previous: turns.previous };
    core.inspect(turns.current, options);
    const stats = await measure(
      {
        strata: { fn: () => core.inspect(turns.current, options), async: true },
        parse: () => [JSON.parse(turns.current), JSON.parse(turns.previous)],
      },
      // Five rounds of five at both sizes: with two per round at 5 MB the baseline's median rested on
      // six samples and swung 16-36 ms from run to run, moving the ratio by up to 2x.
      quick ? { rounds: 1, iterations: 3, warmup: 1 } : { rounds: 5, iterations: 5, warmup: 1 },
    );
    // After the timed rounds, so counting never touches a timed call.
    const faults = await faultsPerCall(() => core.inspect(turns.current, options));
    rows.push(
      ratioRow({
        group: "inspect",
        name: '`inspect(text, { previous, provider: "openai" })`',
        input: `OpenAI Chat request · ${formatBytes(turns.current.length)} · ${formatCount(turns.messages)} msgs (previous turn ${formatBytes(turns.previous.length)})`,
        stats,
        subjectKey: "strata",
        baselineKey: "parse",
        baselineName: "`JSON.parse` of both texts",
        profile: mb === 1 ? "inspect-1mb" : "inspect-5mb",
        note: faultNote(`${mb} MB`, faults),
        // Parse, detect, segment, compare, simulate and report in at most eight JSON.parse passes.
        goal: { max: 8, text: "≤ 8×" },
      }),
    );
  }
  return rows;
}

async function inspectProfile(core, mb) {
  const turns = generateOpenAIChatTurns(mb * MB);
  const options = { ...OPTIONS, previous: turns.previous };
  return () => core.inspect(turns.current, options);
}

export const profiles = {
  "inspect-1mb": ({ core }) => inspectProfile(core, 1),
  "inspect-5mb": ({ core }) => inspectProfile(core, 5),
};
