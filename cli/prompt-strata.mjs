#!/usr/bin/env node
// @ts-check
// prompt-strata: the command line over the built package (Node ≥ 20). See `prompt-strata --help`.
import { readFileSync } from "node:fs";
import { checkCommand, CliError, EXIT, inspectCommand, sessionCommand } from "./commands.mjs";

const HELP = `prompt-strata — see what a provider's prompt cache does with your requests

usage:
  prompt-strata inspect <request.json> [--previous <previous.json>] [--provider p] [--model m] [--json]
      The request's report in brief: format, size, the cache simulation, and with --previous
      where and why the two turns stop sharing their prefix.
  prompt-strata session <file.har | file.jsonl | file.json> [--json | --csv] [--quiet]
      A recorded session: threads, each turn's cache read / write / uncached tokens, actual usage
      from the responses, cost, and the busts with their causes. Progress goes to stderr for
      files of 8 MB and more (--quiet turns it off).
  prompt-strata check <before.json> <after.json> [--max-bust-tokens N] [--provider p] [--model m] [--json]
      For CI: fails when <after> busts the cache <before> built or shrinks its cache-stable prefix.
      --max-bust-tokens N lets a change pass that loses at most N cached tokens.

  Requests: Strata AssemblyRequest, OpenAI Chat / Responses, Anthropic Messages or Gemini JSON.
  --provider openai|anthropic|gemini overrides whose cache rules apply; --model the model id.

exit codes:
  0  done (check: the cache-stable prefix holds)
  1  check failed: the change busts the cache or shrinks the cache-stable prefix
  2  usage error: unknown command or option, missing argument
  3  input error: a file cannot be read, is not valid JSON (line and column given), is not a
     request, or (session) holds no model request at all

  prompt-strata --version   prints the version`;

const FLAGS = {
  inspect: { values: ["previous", "provider", "model"], booleans: ["json"] },
  session: { values: [], booleans: ["json", "csv", "quiet"] },
  check: { values: ["provider", "model", "max-bust-tokens"], booleans: ["json"] },
};
const POSITIONAL = { inspect: ["request.json"], session: ["file"], check: ["before.json", "after.json"] };
const PROVIDERS = ["openai", "anthropic", "gemini"];

/** argv → { command, positional, options }, or a CliError (exit 2). */
function parseArgs(argv) {
  const [command, ...rest] = argv;
  if (!command || !(command in FLAGS)) {
    throw new CliError(
      command ? `unknown command "${command}": expected inspect, session or check.` : "missing command.",
      EXIT.usage,
    );
  }
  const spec = FLAGS[command];
  const positional = [];
  const options = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--") {
      positional.push(...rest.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (spec.booleans.includes(name)) {
      if (eq !== -1) throw new CliError(`--${name} takes no value.`, EXIT.usage);
      options[name] = true;
    } else if (spec.values.includes(name)) {
      const value = eq === -1 ? rest[++i] : arg.slice(eq + 1);
      if (value === undefined || value === "") throw new CliError(`--${name} needs a value.`, EXIT.usage);
      options[name] = value;
    } else {
      throw new CliError(
        `unknown option --${name} for ${command} (known: ${[...spec.values, ...spec.booleans].map((f) => `--${f}`).join(", ")}).`,
        EXIT.usage,
      );
    }
  }
  const wanted = POSITIONAL[command];
  if (positional.length !== wanted.length)
    throw new CliError(
      `${command} takes ${wanted.map((w) => `<${w}>`).join(" ")}, got ${positional.length} argument(s).`,
      EXIT.usage,
    );
  if (options.provider !== undefined && !PROVIDERS.includes(options.provider))
    throw new CliError(`--provider must be one of ${PROVIDERS.join(", ")}.`, EXIT.usage);
  if (options["max-bust-tokens"] !== undefined && !/^\d+$/.test(options["max-bust-tokens"]))
    throw new CliError("--max-bust-tokens must be a whole number of tokens.", EXIT.usage);
  if (options.json && options.csv) throw new CliError("--json and --csv do not go together.", EXIT.usage);
  return { command, positional, options };
}

async function main(argv) {
  const out = (text, newline = true) => process.stdout.write(newline ? `${text}\n` : text);
  const err = (text, newline = true) => process.stderr.write(newline ? `${text}\n` : text);
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    out(HELP);
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  if (argv[0] === "--version" || argv[0] === "-v") {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    out(pkg.version);
    return EXIT.ok;
  }
  const { command, positional, options } = parseArgs(argv);
  const common = {
    json: options.json === true,
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.model ? { model: options.model } : {}),
  };
  if (command === "inspect") return inspectCommand({ file: positional[0], previous: options.previous, ...common }, out);
  if (command === "check")
    return checkCommand(
      {
        before: positional[0],
        after: positional[1],
        ...(options["max-bust-tokens"] === undefined ? {} : { maxBustTokens: Number(options["max-bust-tokens"]) }),
        ...common,
      },
      out,
    );
  return sessionCommand(
    { file: positional[0], json: common.json, csv: options.csv === true, quiet: options.quiet === true },
    out,
    err,
    process.stderr.isTTY === true,
  );
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  if (e instanceof CliError) {
    process.stderr.write(`prompt-strata: ${e.message}\n`);
    if (e.exitCode === EXIT.usage) process.stderr.write("Run `prompt-strata --help` for usage.\n");
    process.exitCode = e.exitCode;
  } else {
    process.stderr.write(`prompt-strata: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 70;
  }
}
