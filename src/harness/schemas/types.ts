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
  /** The clauses the failure breaks: the `x-clause` of the schema and field that failed (schemas/clause-of.ts). */
  clauses?: string[];
}

export interface OperationMatch {
  /** Operation id from schemas/operations.yaml, e.g. "event.list"; "unmatched" when no path template matches. */
  operation: string;
  /** Schema $id for this status, or undefined when the operation has no entry for the status. */
  schemaId: string | undefined;
  /** Statuses that do have an entry (for the failure message). */
  knownStatuses: number[];
  /** All status keys with an entry, status classes included (e.g. ["200", "4XX"]). */
  statusKeys?: string[];
  /** The resolved path template that matched (absent for "unmatched"). */
  template?: string;
  /** Path parameters taken from the request path, URL-decoded. */
  params?: Record<string, string>;
}

export interface RegistryOptions {
  /** Target profile `paths` (relative to base_url) for the operations the spec leaves "not shown". */
  paths?: Record<string, string>;
  /** Target profile `fields`: JSON pointers (or property names) for body shapes the spec leaves open. */
  fields?: Record<string, string>;
  /** Target profile `records`: where a record sits in its response (JSON pointer); null = no record in it. */
  records?: Record<string, string | null>;
}

/** The compiled function behind a schema (exposed so callers and tests can see it is compiled once). */
export type CompiledValidator = ((value: unknown) => boolean) & { errors?: unknown };

export interface SchemaRegistry {
  /** Accepts a full $id, a short name (`event`, `holding`), `name#/$defs/x`, or a schemaId from matchOperation. */
  validate(schemaId: string, value: unknown): SchemaResult;
  /** Which operation a request is (method + path relative to base_url or auth_url, resolved with the target's paths). */
  matchOperation(method: string, pathname: string, base: 'api' | 'auth', status: number): OperationMatch | undefined;
  schemaIds(): string[];
  /** The compiled validator for a schema (same object on every call); throws FTF_E_SCHEMA_UNKNOWN. */
  validator(schemaId: string): CompiledValidator;
  /** Operation ids this target offers (spec operations plus the configured `$paths` ones). */
  operationIds(): string[];
}
