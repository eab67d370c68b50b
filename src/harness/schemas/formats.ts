/**
 * Custom formats and annotation keywords added to the one Ajv instance.
 * `decimal`: the pattern in common.schema.json already fixes the notation; decimal.js parses it again so a
 * "decimal string" is checked as a decimal (RES-DECIMAL), never through a float.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { Decimal } from 'decimal.js';

/** Plain decimal notation: optional minus, no leading zeros, optional fraction, no exponent. */
export const DECIMAL_PATTERN = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

export function isDecimalString(value: string): boolean {
  if (!DECIMAL_PATTERN.test(value)) return false;
  try {
    return new Decimal(value).isFinite();
  } catch {
    return false;
  }
}

/** `x-expect` is a human noun ("a decimal string") used only to write readable failure messages. */
export const EXPECT_KEYWORD = 'x-expect';

/**
 * `x-clause` names the clause of clauses.yaml a (sub)schema states (issue 24): a schema failure blames the clause
 * of the schema and field that failed (schemas/clause-of.ts), not the clauses of the scenario that read it.
 */
export const CLAUSE_KEYWORD = 'x-clause';

export function addFtfVocabulary(ajv: Ajv2020): void {
  ajv.addFormat('decimal', { type: 'string', validate: isDecimalString });
  ajv.addVocabulary([EXPECT_KEYWORD, CLAUSE_KEYWORD]);
}
