// Stryker's incremental file, kept honest when the test set grows (scripts/mutation-code.mjs, docs/mutation-code.md).
//
// Stryker reuses a mutant's earlier result unless a test that covers it is new or changed. A static mutant (module-level
// code, run while the reference loads) has no per-test coverage, so no new test ever counts as covering it: a static
// mutant that survived is reused as survived however many tests were added since. When the test set gained tests, those
// results are dropped, so Stryker tests the mutants again (each in a fresh runner process with every test).

/** Names of the tests the incremental file was made with. */
export function testNamesOf(incremental) {
  return new Set(Object.values(incremental.testFiles ?? {}).flatMap((f) => f.tests.map((t) => t.name)));
}

/**
 * Drops from `incremental` (in place) the static mutants not detected (Survived, NoCoverage) of the files under
 * `src/reference/<folder>/` for the folders in `scope`, if `current` names a test the file was not made with.
 * Returns the tests added and how many results were dropped.
 */
export function dropStaleStaticResults(incremental, current, scope) {
  const before = testNamesOf(incremental);
  const added = [...current].filter((name) => !before.has(name));
  let dropped = 0;
  if (added.length === 0) return { added, dropped };
  for (const [path, file] of Object.entries(incremental.files ?? {})) {
    if (!scope.some((folder) => path.startsWith(`src/reference/${folder}/`))) continue;
    const keep = file.mutants.filter((m) => !(m.static && (m.status === 'Survived' || m.status === 'NoCoverage')));
    dropped += file.mutants.length - keep.length;
    file.mutants = keep;
  }
  return { added, dropped };
}
