/**
 * `npm run schemas:editor`: the clause-id enum of schemas/scenario.schema.json from clauses.yaml, then
 * schemas/step-group.schema.json from the scenario schema (src/harness/scenario/editor-schemas.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { SCENARIO_SCHEMA_FILE, scenarioSchemaText, STEP_GROUP_SCHEMA_FILE, stepGroupSchemaText } from '../src/harness/scenario/editor-schemas.js';
import { loadClauseCatalogue } from '../src/harness/spec/clauses.js';

function write(file: string, next: string): void {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // first write
  }
  if (current === next) console.log(`${file} is current`);
  else {
    writeFileSync(file, next);
    console.log(`wrote ${file}`);
  }
}

const catalogue = loadClauseCatalogue();
const scenario = scenarioSchemaText(readFileSync(SCENARIO_SCHEMA_FILE, 'utf8'), catalogue);
write(SCENARIO_SCHEMA_FILE, scenario);
write(STEP_GROUP_SCHEMA_FILE, stepGroupSchemaText(scenario));
console.log(`${catalogue.clauses.length} clause ids from ${catalogue.clausesFile}`);
