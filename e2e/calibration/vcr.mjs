// Reads recorded HTTP interactions out of VCR cassettes in fetched repositories (git directories
// under /work/.mirror, read at a pinned commit with `git show`): vcrpy YAML (`interactions`, with
// `body` or pydantic-ai's `parsed_body`) and Ruby/R VCR YAML (`http_interactions`, `recorded_at`).
// Used by the calibration builders; nothing here is shipped.
import { execFileSync } from "node:child_process";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { parse } from "yaml";

const git = (dir, args, options = {}) =>
  execFileSync("git", ["--git-dir", dir, ...args], { maxBuffer: 1 << 30, encoding: "utf8", ...options });

/** The git directory of a fetched repository (`owner/name`), or null when it was not fetched. */
export function mirrorDir(mirror, repo) {
  for (const d of [`${mirror}/${repo.replace("/", "+")}/repo`, `${mirror}/${repo.replace("/", "+")}/repo/.git`]) {
    try {
      git(d, ["rev-parse", "HEAD"]);
      return d;
    } catch {}
  }
  return null;
}

export const headCommit = (dir) => git(dir, ["rev-parse", "HEAD"]).trim();

/** YAML cassettes at `commit` whose text mentions one of `words`. */
export function cassettesMentioning(dir, commit, words) {
  let out = "";
  try {
    out = git(dir, ["grep", "-l", "-E", words.join("|"), commit, "--", "*.yaml", "*.yml"]);
  } catch {
    return [];
  }
  return out
    .split("\n")
    .filter(Boolean)
    .map((l) => l.slice(commit.length + 1))
    .sort();
}

const header = (headers, name) => {
  if (!headers || typeof headers !== "object") return undefined;
  for (const [k, v] of Object.entries(headers))
    if (k.toLowerCase() === name) return Array.isArray(v) ? String(v[0]) : String(v);
  return undefined;
};

function decode(bytes, encoding) {
  const b = Buffer.from(bytes);
  try {
    if (encoding === "gzip" || (b[0] === 0x1f && b[1] === 0x8b)) return gunzipSync(b).toString("utf8");
    if (encoding === "br") return brotliDecompressSync(b).toString("utf8");
    if (encoding === "deflate") return inflateSync(b).toString("utf8");
  } catch {}
  return b.toString("utf8");
}

/** A body as text: a string, bytes (decompressed by its content-encoding), or a parsed JSON value. */
function bodyText(body, parsed, headers) {
  if (parsed !== undefined && parsed !== null) return typeof parsed === "string" ? parsed : JSON.stringify(parsed);
  if (body === undefined || body === null) return null;
  const enc = header(headers, "content-encoding");
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return decode(body, enc);
  if (typeof body === "object") {
    if (typeof body.base64_string === "string") return decode(Buffer.from(body.base64_string, "base64"), enc);
    if (body.string instanceof Uint8Array) return decode(body.string, enc);
    if (typeof body.string === "string") return body.string;
  }
  return null;
}

/** Every interaction of a cassette: `{ index, method, uri, request, response, status, at }` (bodies as text). */
export function readCassette(dir, commit, path) {
  const text = git(dir, ["show", `${commit}:${path}`]);
  let doc;
  try {
    doc = parse(text, { schema: "yaml-1.1", maxAliasCount: -1, logLevel: "silent", uniqueKeys: false });
  } catch {
    return [];
  }
  const list = doc?.interactions ?? doc?.http_interactions;
  if (!Array.isArray(list)) return [];
  return list.map((it, index) => {
    const req = it?.request ?? {};
    const res = it?.response ?? {};
    const status = typeof res.status === "object" ? res.status?.code : res.status;
    const date = it.recorded_at ?? header(res.headers, "date") ?? null;
    const at = date && !Number.isNaN(Date.parse(date)) ? new Date(Date.parse(date)).toISOString() : null;
    return {
      index,
      method: String(req.method ?? "").toUpperCase(),
      uri: String(req.uri ?? ""),
      request: bodyText(req.body, req.parsed_body, req.headers),
      response: bodyText(res.body, res.parsed_body, res.headers),
      status: typeof status === "number" ? status : null,
      at,
    };
  });
}
