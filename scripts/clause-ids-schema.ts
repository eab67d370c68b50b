/** `npm run schemas:clauses`: writes schemas/clause-ids.schema.json from clauses.yaml (src/harness/spec/clause-ids-schema.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { CLAUSE_IDS_SCHEMA_FILE, clauseIdsSchemaText } from '../src/harness/spec/clause-ids-schema.js';
import { loadClauseCatalogue } from '../src/harness/spec/clauses.js';

const catalogue = loadClauseCatalogue();
const text = clauseIdsSchemaText(catalogue);
let current = '';
try {
  current = readFileSync(CLAUSE_IDS_SCHEMA_FILE, 'utf8');
} catch {
  // first write
}
if (current === text) console.log(`${CLAUSE_IDS_SCHEMA_FILE} is current (${catalogue.clauses.length} ids from ${catalogue.clausesFile})`);
else {
  writeFileSync(CLAUSE_IDS_SCHEMA_FILE, text);
  console.log(`wrote ${CLAUSE_IDS_SCHEMA_FILE} (${catalogue.clauses.length} ids from ${catalogue.clausesFile})`);
}
