// Packs the package exactly as `npm publish` would and unpacks the tarball into a scratch
// app's node_modules, so checks see what a user installs — not the working tree.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../runtimes/bundle.mjs";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
/** Runs a command; on failure the error message carries its output. */
export function run(command, args, cwd = root) {
  try {
    return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const output = `${error.stdout ?? ""}${error.stderr ?? ""}`.trim();
    throw new Error(
      `\`${[command, ...args].join(" ")}\` failed${output ? `:\n${output.slice(0, 4000)}` : ` (${error.message})`}`,
      { cause: error },
    );
  }
}

/** `npm run build:core`. */
export function buildCore() {
  run(npm, ["run", "--silent", "build:core"]);
}

/**
 * `npm pack` into `workDir`, unpacked to `workDir/app/node_modules/prompt-strata`.
 * Returns the tarball path, npm's file list and the app and package directories.
 */
export function packInto(workDir) {
  rmSync(workDir, { recursive: true, force: true });
  const appDir = join(workDir, "app");
  const pkgDir = join(appDir, "node_modules/prompt-strata");
  mkdirSync(pkgDir, { recursive: true });
  // Its own package.json: otherwise "prompt-strata" would resolve to the repo itself
  // (package self-reference) instead of the unpacked tarball.
  writeFileSync(
    join(appDir, "package.json"),
    `${JSON.stringify({ name: "strata-scratch-app", private: true, type: "module" }, null, 2)}\n`,
  );
  const [packed] = JSON.parse(run(npm, ["pack", "--json", "--pack-destination", workDir]));
  const tarball = join(workDir, packed.filename);
  run("tar", ["-xzf", tarball, "-C", pkgDir, "--strip-components=1"]);
  return { tarball, packed, appDir, pkgDir };
}
