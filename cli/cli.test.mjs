// The CLI as a user runs it: a child process over the built package (`npm run build:core` first;
// `npm run test:package` does both). Exit codes, --json output, errors, progress.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const sample = (name) => `public/samples/${name}`;

function cli(...args) {
  const r = spawnSync(process.execPath, ["cli/prompt-strata.mjs", ...args], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const scratch = mkdtempSync(join(tmpdir(), "strata-cli-"));
const write = (name, text) => {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
};

describe("prompt-strata check", () => {
  it.each([
    ["an identical request", "conversation-turn-1.json", "conversation-turn-1.json", 0, "identical"],
    ["an appended turn", "conversation-turn-1.json", "conversation-turn-2.json", 0, "appended"],
    ["a changed system prompt", "conversation-turn-2.json", "conversation-turn-3.json", 1, "system_changed"],
    ["re-ordered tools", "conversation-turn-3.json", "conversation-turn-4.json", 1, "tool_order_changed"],
  ])("%s: %s → %s exits %i (%s)", (_what, before, after, code, cause) => {
    const r = cli("check", sample(before), sample(after));
    expect(r.code).toBe(code);
    expect(r.out).toContain(`cause          ${cause}`);
    expect(r.out).toMatch(code === 0 ? /verdict\s+pass/ : /verdict\s+FAIL: the change busts the cache/);
  });

  it("lets a bust pass within --max-bust-tokens, and fails it above", () => {
    const json = (n) =>
      JSON.parse(
        cli(
          "check",
          sample("conversation-turn-2.json"),
          sample("conversation-turn-3.json"),
          "--json",
          "--max-bust-tokens",
          String(n),
        ).out,
      );
    const lost = json(0).lostTokens;
    expect(lost).toBeGreaterThan(0);
    expect(
      cli("check", sample("conversation-turn-2.json"), sample("conversation-turn-3.json"), `--max-bust-tokens=${lost}`)
        .code,
    ).toBe(0);
    expect(
      cli(
        "check",
        sample("conversation-turn-2.json"),
        sample("conversation-turn-3.json"),
        `--max-bust-tokens=${lost - 1}`,
      ).code,
    ).toBe(1);
  });

  it("prints machine-readable JSON with --json", () => {
    const r = cli("check", sample("conversation-turn-3.json"), sample("conversation-turn-4.json"), "--json");
    expect(r.code).toBe(1);
    const out = JSON.parse(r.out);
    expect(out).toMatchObject({
      verdict: "fail",
      cause: "tool_order_changed",
      bustsCache: true,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      maxBustTokens: null,
      divergence: { path: "tools[3]" },
    });
    expect(out.sharedPrefix.tokens).toBeLessThan(out.before.tokens);
  });
});

describe("prompt-strata session and inspect", () => {
  it("prints the bundled sample session's turns, busts and totals", () => {
    const r = cli("session", sample("sessions/dispatch.har"));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/8 records · 6 turns in 2 thread\(s\) · 2 skipped/);
    expect(r.out).toMatch(/thread t1 · anthropic · claude-sonnet-4-5 · 4 turn\(s\)/);
    expect(r.out).toMatch(/system_changed ✗ \(expired\)/);
    expect(r.out).toMatch(/t1 turn 4 \(log\.entries\[7\]\) after turn 3: tool_order_changed/);
    expect(r.err).toBe("");
  });

  it("prints the report as JSON and the turns as CSV", () => {
    const report = JSON.parse(cli("session", sample("sessions/dispatch.jsonl"), "--json").out);
    expect(report.kind).toBe("strata-session-report");
    expect(report.threads.map((t) => t.turns.length)).toEqual([4, 2]);
    const csv = cli("session", sample("sessions/dispatch.jsonl"), "--csv").out.split("\r\n");
    expect(csv[0]).toMatch(/^thread,turn,entry,at,time,/);
    expect(csv.filter((l) => l !== "")).toHaveLength(7);
  });

  it("inspects a request against its previous turn", () => {
    const r = cli("inspect", sample("conversation-turn-3.json"), "--previous", sample("conversation-turn-2.json"));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Anthropic Messages · claude-sonnet-4-5/);
    expect(r.out).toMatch(/system_changed \(busts the cache\)/);
    expect(r.out).toMatch(/2 \(this\)/);
    expect(JSON.parse(cli("inspect", sample("openai-chat.json"), "--json").out).format).toBe("openai-chat");
  });

  it("shows progress on stderr for a long file, and keeps stdout for the report", () => {
    const line = readFileSync(join(root, sample("sessions/dispatch.jsonl")), "utf8").split("\n")[0];
    const path = write("long.jsonl", `${line}\n`.repeat(Math.ceil((9 * 1024 * 1024) / line.length)));
    const r = cli("session", path, "--json");
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/reading .*long\.jsonl: 9\.\d of 9\.\d MB · [\d,]+ records/);
    expect(JSON.parse(r.out).input.kind).toBe("jsonl");
    expect(cli("session", path, "--quiet", "--json").err).toBe("");
  });
});

describe("prompt-strata errors", () => {
  it("exits 3 for a file that is missing, not JSON, or not a request, saying which and where", () => {
    const missing = cli("check", "nope.json", sample("conversation-turn-1.json"));
    expect(missing).toMatchObject({ code: 3, out: "" });
    expect(missing.err).toBe("prompt-strata: cannot read nope.json: no such file.\n");
    const broken = write("broken.json", '{\n  "model": "gpt-4.1",\n  "messages": [\n');
    const bad = cli("inspect", broken);
    expect(bad.code).toBe(3);
    expect(bad.err).toMatch(/broken\.json \(line \d+, column \d+\): The request is not valid JSON/);
    const notRequest = write("not-request.json", '{"hello":"world"}');
    expect(cli("check", notRequest, notRequest).err).toMatch(
      /not-request\.json: The request matches none of the supported formats/,
    );
  });

  it("exits 3 for a session with no model requests, with the reason", () => {
    const har = JSON.parse(readFileSync(join(root, sample("sessions/dispatch.har")), "utf8"));
    har.log.entries = har.log.entries.slice(0, 2);
    const r = cli("session", write("none.har", JSON.stringify(har)));
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/warning: None of the 2 records is a model request Strata reads/);
  });

  it("exits 2 for usage errors", () => {
    expect(cli("compare", "a", "b")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown command "compare"/),
    });
    expect(cli("check", "a.json")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/check takes <before\.json> <after\.json>/),
    });
    expect(cli("check", "a", "b", "--fast").err).toMatch(/unknown option --fast for check/);
    expect(cli("check", "a", "b", "--max-bust-tokens", "ten").code).toBe(2);
    expect(cli().code).toBe(2);
  });

  it("prints help with the exit codes, and the version", () => {
    const help = cli("--help");
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/exit codes:\n  0 {2}done/);
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    expect(cli("--version").out).toBe(`${version}\n`);
  });
});
