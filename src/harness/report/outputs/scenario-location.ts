/**
 * Where a YAML scenario's test is shown: its scenario (the YAML file and the scenario's line in it), not the
 * line of specs/scenario-tests.ts that declares every scenario. The spec file names the scenario's file in
 * the `scenario-file` annotation (repository-relative, else absolute); a scenario is its whole file, so its
 * location is the file's start (Scenario.source in scenario/load.ts: line 1, column 1). The redacting reporter
 * applies it before any wrapped reporter sees the test; tests without the annotation (the fast-check
 * properties) keep their own location.
 */
import { isAbsolute, resolve } from 'node:path';
import type { Location, TestCase } from '@playwright/test/reporter';
import { REPO_ROOT } from '../../repo-root.js';

/** The location a test should show, or undefined when it is not a YAML scenario. */
export function scenarioLocation(annotations: readonly { type: string; description?: string }[], root = REPO_ROOT): Location | undefined {
  const file = annotations.find((a) => a.type === 'scenario-file')?.description;
  if (!file) return undefined;
  return { file: isAbsolute(file) ? file : resolve(root, file), line: 1, column: 1 };
}

/** Sets `test.location` to its scenario's (a no-op for other tests). */
export function locateAtScenario(test: Pick<TestCase, 'annotations' | 'location'>): void {
  const at = scenarioLocation(test.annotations);
  if (at) (test as { location: Location }).location = at;
}
