/**
 * The single schema registry: every schema compiled once per process (ajv 2020 + ajv-formats), looked up
 * by $id; the operation map (schemas/operations.yaml) says which schema a response must satisfy.
 */
export interface SchemaIssue {
  /** JSON pointer into the validated value. */
  instancePath: string;
  /** ajv keyword, e.g. required, type, enum, pattern. */
  keyword: string;
  message: string;
}

export interface SchemaResult {
  valid: boolean;
  schemaId: string;
  issues: SchemaIssue[];
}

export interface OperationMatch {
  /** Operation id from schemas/operations.yaml, e.g. "event.list". */
  operation: string;
  /** Schema $id for this status, or undefined when the operation has no entry for the status. */
  schemaId: string | undefined;
  /** Statuses that do have an entry (for the failure message). */
  knownStatuses: number[];
}

export interface SchemaRegistry {
  validate(schemaId: string, value: unknown): SchemaResult;
  /** Which operation a request is (method + path relative to base_url or auth_url, resolved with the target's paths). */
  matchOperation(method: string, pathname: string, base: 'api' | 'auth', status: number): OperationMatch | undefined;
  schemaIds(): string[];
}
