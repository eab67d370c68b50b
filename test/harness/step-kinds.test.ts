/** Step kinds live in ONE list (STEP_KINDS); the places that must repeat it as data are checked against it. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { stepHandler, stepKinds } from '../../src/harness/engine/steps/registry.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { STEP_KINDS } from '../../src/harness/scenario/types.js';

const sorted = (xs: Iterable<string>): string[] => [...xs].sort();
const schema = JSON.parse(readFileSync(`${REPO_ROOT}/schemas/scenario.schema.json`, 'utf8')) as {
  $defs: { step: { oneOf: Array<{ required: string[] }>; allOf: Array<{ if: { required: string[] }; then: { $ref: string } }> } };
};

describe('step kinds', () => {
  it('the registry has exactly the kinds of STEP_KINDS, each handler under its own name', () => {
    assert.deepEqual(stepKinds(), [...STEP_KINDS]);
    for (const kind of STEP_KINDS) assert.equal(stepHandler(kind).kind, kind);
  });

  it('schemas/scenario.schema.json: one oneOf branch and one if/then per kind', () => {
    const step = schema.$defs.step;
    assert.deepEqual(sorted(step.oneOf.flatMap((b) => b.required)), sorted(STEP_KINDS));
    assert.deepEqual(sorted(step.allOf.flatMap((b) => b.if.required)), sorted(STEP_KINDS));
    for (const b of step.allOf) assert.ok(schema.$defs[b.then.$ref.replace('#/$defs/', '') as 'step'], `${b.then.$ref} exists`);
  });

  it('README lists every kind', () => {
    const readme = readFileSync(`${REPO_ROOT}/README.md`, 'utf8');
    const line = /Step kinds: ([^.]*)\./.exec(readme.replace(/\n/g, ' '))?.[1] ?? '';
    assert.deepEqual(sorted(line.match(/`[a-z_]+`/g)?.map((k) => k.slice(1, -1)) ?? []), sorted(STEP_KINDS));
  });

  it('docs/scenario-format.md has a section naming every kind', () => {
    const headings = readFileSync(`${REPO_ROOT}/docs/scenario-format.md`, 'utf8').split('\n').filter((l) => l.startsWith('### '));
    for (const kind of STEP_KINDS) assert.ok(headings.some((h) => h.split(/[ (]/).includes(kind)), `### ${kind}`);
  });
});
