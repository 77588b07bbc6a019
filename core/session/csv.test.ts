import { describe, expect, it } from "vitest";
import { harOf, sampleSessionRecords } from "../test-support/samples-session.ts";
import { sessionReportCsv } from "./csv.ts";
import { inspectSession } from "./inspect-session.ts";
import { parseSession } from "./parse.ts";

/** A small RFC 4180 reader, to check what the writer wrote. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') field += text[++i];
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  return rows;
}

describe("sessionReportCsv", () => {
  const report = inspectSession(parseSession(harOf(sampleSessionRecords)));
  const rows = readCsv(sessionReportCsv(report));

  it("writes a header and one row per turn, thread by thread", () => {
    expect(rows[0]!.slice(0, 4)).toEqual(["thread", "turn", "entry", "at"]);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[7]])).toEqual([
      ["t1", "1", "first"],
      ["t1", "2", "appended"],
      ["t1", "3", "system_changed"],
      ["t1", "4", "tool_order_changed"],
      ["t2", "1", "first"],
      ["t2", "2", "appended"],
    ]);
  });

  it("quotes details with commas and quotes, and leaves absent values empty", () => {
    const col = (name: string) => rows[0]!.indexOf(name);
    const t3 = report.threads[0]!.turns[2]!;
    expect(rows[3]![col("detail")]).toBe(t3.detail);
    expect(rows[1]![col("gap_seconds")]).toBe("");
    expect(Number(rows[2]![col("predicted_cache_read")])).toBe(report.threads[0]!.turns[1]!.predicted.cacheRead);
  });
});
