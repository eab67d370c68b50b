/**
 * Issue 14 item 7 (editor support): every scenario, step group and profile carries its schema modeline; the
 * step-group schema; clause ids as a generated enum that is current; schemas an editor can resolve; all problems of a file in one pass,
 * YAML errors where they start, unknown keys named at their place.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { SCENARIO_SCHEMA_FILE, scenarioSchemaText, STEP_GROUP_SCHEMA_FILE, stepGroupSchemaText } from '../../src/harness/scenario/editor-schemas.js';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { loadClauseCatalogue } from '../../src/harness/spec/clauses.js';
import { modeline, schemaKindOf, SCHEMA_FILES } from '../../src/harness/yaml/modeline.js';
import type { FtfError } from '../../src/shared/errors.js';
import { TEST_CLAUSES } from './engine-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ftf-editor-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function yamlUnder(d: string): string[] {
  return readdirSync(join(REPO_ROOT, d), { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(REPO_ROOT, d, f));
}

describe('schema modelines', () => {
  it('every scenario, step group and target profile starts with the modeline of its schema, and the path resolves', () => {
    const files = [...yamlUnder('specs'), ...yamlUnder('fixtures/targets')];
    const kinds = new Set<string>();
    for (const file of files) {
      const kind = schemaKindOf(file);
      if (!kind) continue;
      kinds.add(kind);
      const first = readFileSync(file, 'utf8').split('\n')[0];
      assert.equal(first, modeline(file, kind), `${file.slice(REPO_ROOT.length + 1)}: first line must be the modeline (npm run modelines)`);
      assert.equal(resolve(join(file, '..'), first!.replace(/^.*\$schema=/, '')), SCHEMA_FILES[kind]);
    }
    assert.deepEqual([...kinds].sort(), ['scenario', 'stepGroup', 'target']);
  });

  it('step groups point at step-group.schema.json, scenarios at scenario.schema.json', () => {
    assert.equal(modeline(join(REPO_ROOT, 'specs/_steps/x.yaml'), schemaKindOf(join(REPO_ROOT, 'specs/_steps/x.yaml'))!), '# yaml-language-server: $schema=../../schemas/step-group.schema.json');
    assert.equal(modeline(join(REPO_ROOT, 'specs/token/x.yaml'), schemaKindOf(join(REPO_ROOT, 'specs/token/x.yaml'))!), '# yaml-language-server: $schema=../../schemas/scenario.schema.json');
    assert.equal(schemaKindOf(join(REPO_ROOT, 'fixtures/targets/x.waivers.yaml')), undefined);
  });
});

describe('schemas for editors', () => {
  it('the clause-id enum of scenario.schema.json and step-group.schema.json are current (else: npm run schemas:editor)', () => {
    const catalogue = loadClauseCatalogue();
    const scenario = readFileSync(SCENARIO_SCHEMA_FILE, 'utf8');
    assert.equal(scenario, scenarioSchemaText(scenario, catalogue), 'scenario.schema.json: clause ids stale, run `npm run schemas:editor`');
    assert.equal(readFileSync(STEP_GROUP_SCHEMA_FILE, 'utf8'), stepGroupSchemaText(scenario), 'step-group.schema.json stale, run `npm run schemas:editor`');
    const schema = JSON.parse(scenario) as { $defs: { clauseId: { enum: string[] } }; properties: { covers: { items: unknown } } };
    assert.deepEqual(schema.$defs.clauseId.enum, catalogue.clauses.map((c) => c.id));
    assert.deepEqual(schema.properties.covers.items, { $ref: '#/$defs/clauseId' });
  });

  it('the generated text follows the catalogue and the scenario schema (a new clause id or step field makes them stale)', () => {
    const catalogue = loadClauseCatalogue();
    const scenario = readFileSync(SCENARIO_SCHEMA_FILE, 'utf8');
    const more = { clauses: [...catalogue.clauses, { ...catalogue.clauses[0]!, id: 'ERR-NEW-CLAUSE' }] };
    assert.notEqual(scenarioSchemaText(scenario, more), scenario);
    assert.match(scenarioSchemaText(scenario, more), /"ERR-NEW-CLAUSE"/);
    const edited = JSON.parse(scenario) as { $defs: { stepGroup: { properties: Record<string, unknown> } } };
    edited.$defs.stepGroup.properties.extra = { type: 'string' };
    assert.notEqual(stepGroupSchemaText(JSON.stringify(edited)), readFileSync(STEP_GROUP_SCHEMA_FILE, 'utf8'));
  });

  it('both schemas are self-contained (no $ref to another file: editors resolve those against the $id URL)', () => {
    for (const file of [SCENARIO_SCHEMA_FILE, STEP_GROUP_SCHEMA_FILE]) {
      const refs = [...readFileSync(file, 'utf8').matchAll(/"\$ref": "([^"]*)"/g)].map((m) => m[1]!);
      assert.ok(refs.length > 0);
      assert.deepEqual(refs.filter((r) => !r.startsWith('#')), [], file);
    }
    const group = JSON.parse(readFileSync(STEP_GROUP_SCHEMA_FILE, 'utf8')) as { $ref: string; $id: string };
    assert.equal(group.$ref, '#/$defs/stepGroup');
    assert.equal(group.$id, 'https://ftf-conformance.dev/schemas/step-group.schema.json');
  });
});

describe('all problems of a file in one pass, each at its place', () => {
  const specs = join(dir, 'specs');
  const fam = join(specs, 'fam');
  mkdirSync(join(specs, '_steps'), { recursive: true });
  mkdirSync(fam, { recursive: true });
  // Line numbers below are 1-based; the modeline is line 1 like in the real files.
  writeFileSync(join(fam, 'many.yaml'), [
    '# yaml-language-server: $schema=../../schemas/scenario.schema.json',
    'id: fam.many',
    'covers:',
    '  - T-ONE',
    '  - NOPE-42',
    'tgas: [x]',
    'steps:',
    '  - request: { method: GET, path: /x, querry: {} }',
    '',
  ].join('\n'));
  const UNCLOSED = '  - request: { method: GET, path: "/x }';
  writeFileSync(join(fam, 'syntax.yaml'), [
    'id: fam.syntax',
    'title: one',
    'title: two',
    'covers: [T-ONE]',
    'steps:',
    UNCLOSED,
    '',
  ].join('\n'));
  writeFileSync(join(specs, '_steps', 'bad-group.yaml'), [
    '# yaml-language-server: $schema=../../schemas/step-group.schema.json',
    'name: bad-group',
    'parms: [a]',
    'steps:',
    '  - request: { method: GET, path: /x }',
    '',
  ].join('\n'));
  const suite = loadScenarioSuite(specs, { clauses: TEST_CLAUSES });
  const errorsOf = (name: string): FtfError[] => suite.problems.find((p) => p.file.endsWith(name))?.errors ?? [];
  const at = (e: FtfError): string => `${e.location?.line}:${e.location?.column}`;

  it('a scenario with a missing field, two unknown keys and an unknown clause id: all four together', () => {
    const errors = errorsOf('many.yaml');
    const lines = errors.map((e) => `${at(e)} ${e.message}`);
    assert.equal(errors.length, 4, lines.join('\n'));
    assert.ok(lines.some((l) => /^2:1 the file is missing the required field 'title'$/.test(l)), lines.join('\n'));
    assert.ok(lines.includes("6:1 unknown field 'tgas' in the file"), lines.join('\n'));
    assert.ok(lines.includes("8:39 unknown field 'querry' in 'steps.0.request'"), lines.join('\n'));
    assert.ok(lines.includes("5:5 unknown clause id 'NOPE-42'"), lines.join('\n'));
    const tgas = errors.find((e) => e.message.includes("'tgas'"));
    assert.match(tgas?.hint ?? '', /allowed here: .*tags/);
  });

  it('every YAML syntax error of a file, each where it starts (an unclosed quote at its opening quote)', () => {
    const errors = errorsOf('syntax.yaml');
    const lines = errors.map((e) => `${at(e)} ${e.message}`);
    assert.ok(errors.length >= 2, lines.join('\n'));
    assert.ok(errors.every((e) => /YAML syntax error/.test(e.message)), lines.join('\n'));
    assert.ok(lines.some((l) => /^3:1 .*unique/i.test(l)), `the duplicate key on line 3: ${lines.join('\n')}`);
    const quote = `6:${UNCLOSED.indexOf('"') + 1}`;
    assert.ok(lines.some((l) => l.startsWith(`${quote} `) && /quote/i.test(l)), `the unclosed quote where it opens (${quote}), not at the end of the file: ${lines.join('\n')}`);
  });

  it('a step group is checked against the step-group schema: the unknown key is named at its place', () => {
    const errors = errorsOf('bad-group.yaml');
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.message, "unknown field 'parms' in the file");
    assert.equal(at(errors[0]!), '3:1');
    assert.match(errors[0]!.hint ?? '', /allowed here: .*params/);
  });

  it('clause ids outside the generated enum are judged by the catalogue in use (FTF_SPEC_DIR), not the enum', () => {
    // T-ONE is not a clause of clauses.yaml, but it is one of the catalogue given: no error for it anywhere.
    assert.ok(!suite.problems.flatMap((p) => p.errors).some((e) => /T-ONE/.test(e.message)));
  });
});
