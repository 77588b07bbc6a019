/**
 * The public `simulateNextTurn`: it assembles an `AssemblyRequest` twice per layout, so the
 * assembler is loaded with it on the first call (by `import()`), not with `prompt-strata/inspect`
 * — an app that inspects wire requests never loads it. Same contract as next-turn.ts.
 */
import type { NextTurnSimulation } from "../cache/types.ts";
import type { AssemblyRequest } from "../request/assembly-request.ts";
import type { NextTurnOptions } from "./next-turn.ts";

export async function simulateNextTurn(
  request: AssemblyRequest,
  options: NextTurnOptions,
): Promise<NextTurnSimulation> {
  return (await import("./next-turn.ts")).simulateNextTurn(request, options);
}
