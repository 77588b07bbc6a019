// Prints one runner's result in the same shape for every runtime and sets the exit code.
export function report(runtime, version, files, result) {
  for (const f of result.failures) console.error(`  ✗ ${f.name}\n    ${f.error.replaceAll("\n", "\n    ")}`);
  const summary = `${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped`;
  console.log(`[${runtime} ${version}] ${files.length} test files`);
  console.log(`${runtime}: ${summary}`);
  if (result.failed > 0 || result.passed === 0) {
    if (result.passed === 0) console.error(`${runtime}: no test passed — the suite did not run`);
    process.exitCode = 1;
  }
}
