/** Check kinds, one per file; each returns a CheckResult {check, passed, severity, expected, actual, message}. */
export type { CheckResult, CheckedResponse, Severity } from './types.js';
export { result } from './types.js';
export { excerpt, describeExchange, EXCERPT_CHARS, type Redact } from './excerpt.js';
export { checkStatus } from './status.js';
export { checkSchema, type SchemaCheckInput } from './schema.js';
export { checkJsonSubset, subsetMismatches } from './json-subset.js';
export { checkHeaders } from './header.js';
export { checkDetail } from './detail.js';
export { checkWhere } from './where.js';
export { checkCount, type CountBounds } from './count.js';
