/**
 * Shapes shared by the properties: what a page looked like (only what the oracle needs), what a generated
 * paging case asks for, and a violation naming the clause it breaks (paging and model clauses).
 */
import { FtfError } from '../../shared/errors.js';

/** Clauses the paging properties check (annotated on the tests, named in every violation). */
export type PagingClause = 'EP-EVENT-PAGING' | 'EP-EVENT-FENCE' | 'EP-EVENT-PAGE-LIMIT' | 'EP-EVENT-TOTAL' | 'EVS-ORDER';

/** Further clauses the stateful model properties check (src/harness/properties/model/). */
export type ModelClause =
  | 'EP-SUBSCRIBE-IDEMPOTENCY-KEY' | 'EP-SUBSCRIBE-REPLAY' | 'EP-SUBSCRIBE-NEW-KEY' | 'ERR-AMOUNT-MIN' | 'ERR-INDICATION-UID'
  | 'EP-CHECKPOINT-CREATE' | 'EP-CHECKPOINT-CYCLE' | 'EP-CHECKPOINT-CONFLICT' | 'EP-CHECKPOINT-SCOPE' | 'RES-CHECKPOINT'
  | 'RES-CHECKPOINT-DELETE' | 'ERR-NOT-FOUND' | 'EP-WEBHOOK' | 'RES-WEBHOOK-DELETE' | 'AUTH-ENDPOINT-403' | 'AUTH-ENTITY-403'
  | 'AUTH-EVENT-SCOPE' | 'EP-ENTITY-SCOPE' | 'EP-SUBSCRIPTION-LIST' | 'EP-HOLDING-GET' | 'ST-HOLDING-AFTER-SUBSCRIPTION'
  | 'AUTH-BEARER' | 'AUTH-TOKEN-REQUEST' | 'AUTH-TOKEN-RESPONSE' | 'AUTH-CLIENT-CREDENTIALS' | 'AUTH-CODE-REDIRECT' | 'AUTH-CODE-PKCE'
  | 'AUTH-REFRESH-ROTATION' | 'AUTH-API-KEY' | 'EP-INDICATION-GET';

export type PropertyClause = PagingClause | ModelClause;

/** An event as the oracle sees it: its identity (uid) and its position token (cursor). */
export interface EventRef {
  uid: string;
  cursor: string;
  /** Kept when the page carried them: the model judges entity_code / event_type filters by them. */
  entityCode?: string;
  eventType?: string;
}

export interface PageInfoView {
  hasNextPage: boolean;
  limit: number;
  endCursor?: string | null;
  pageEndCursor?: string | null;
  totalCount?: number | null;
}

/** One GET /event page of a traversal: the start_cursor it was asked with and what came back. */
export interface PageRecord {
  startCursor: string | undefined;
  events: EventRef[];
  pageInfo: PageInfoView;
}

/** Where a generated traversal ends: a cursor of the snapshot, or the endCursor of a fresh unfenced read (the head). */
export type FenceChoice = { kind: 'event'; index: number } | { kind: 'head'; headLimit: number };

/** Events appended through the sandbox control API before page `beforePage` (0 = before the first page). */
export interface AppendStep {
  beforePage: number;
  count: number;
  /** undefined = the control API's own choice (all entities, round-robin). */
  entityCode: string | undefined;
}

export interface PagingCase {
  /** Index into the snapshot of the start_cursor; -1 = no start_cursor (from the beginning). */
  start: number;
  fence: FenceChoice;
  /** The `limit` query parameter of every page of the traversal. */
  limit: number;
  appends: AppendStep[];
  /** Page of the traversal re-read at the end (taken modulo the number of pages). */
  reread: number;
}

export interface Violation {
  /**
   * The broken clause; `SCHEMA` a response off its schema; `HARNESS` the harness's own set-up broke; `BOUND` the
   * walk reached the profile's own page bound (timeouts.max_pages / max_list_pages) before its end: the target could
   * not be exercised that far (errored, FTF_E_BOUND_EXCEEDED), which says nothing about a clause.
   */
  clause: PropertyClause | 'SCHEMA' | 'HARNESS' | 'BOUND';
  /**
   * With `SCHEMA`: the clauses the schema check named (the `x-clause` of the schema and field that failed,
   * schemas/clause-of.ts), the ones the violation blames; none named, it blames none.
   */
  schemaClauses?: string[];
  /**
   * The answer shows that `clause` or one of these broke, not which (a 404 where the spec allows only a refusal or
   * a service): the property's check leaves them in doubt together, and a clause proven broken elsewhere in the run
   * explains it (report/verdicts/verdicts.ts).
   */
  inDoubtWith?: PropertyClause[];
  /** Which read it happened in: walk, reference read, re-read, … */
  role?: string;
  /** 1-based page of that read, when the violation belongs to one. */
  page?: number;
  message: string;
}

export const PROPERTY_ERROR_CODES = {
  violation: 'FTF_E_PROPERTY_VIOLATION',
  failed: 'FTF_E_PROPERTY_FAILED',
  bound: 'FTF_E_BOUND_EXCEEDED',
} as const;

/** Thrown by a property run; carries the violation so the counterexample text can name the clause. */
export class PropertyViolation extends FtfError {
  constructor(readonly violation: Violation) {
    super(PROPERTY_ERROR_CODES.violation, describeViolation(violation));
    this.name = 'PropertyViolation';
  }
}

/**
 * The error a property run ends with. A counterexample whose violation names a clause (or the schema) is the
 * target's non-conformance (FTF_E_PROPERTY_VIOLATION, naming the broken clause as data for the outcome record);
 * a violation of the harness's own set-up (HARNESS) or a run that could not happen is FTF_E_PROPERTY_FAILED; the
 * profile's page bound reached (BOUND) is FTF_E_BOUND_EXCEEDED, like a list step's: errored, no clause blamed.
 */
export function propertyFailure(text: string, cause: unknown): FtfError {
  const v = cause instanceof PropertyViolation ? cause.violation : undefined;
  if (v?.clause === 'BOUND') {
    return new FtfError(PROPERTY_ERROR_CODES.bound, text, { hint: 'the walk needed more pages than the profile allows: raise timeouts.max_pages (event walks) or timeouts.max_list_pages (lists) if the target really pages that far' });
  }
  if (v === undefined || v.clause === 'HARNESS') return new FtfError(PROPERTY_ERROR_CODES.failed, text);
  const failedClauses = v.clause === 'SCHEMA' ? [...(v.schemaClauses ?? [])] : [v.clause, ...(v.inDoubtWith ?? [])];
  return Object.assign(new FtfError(PROPERTY_ERROR_CODES.violation, text), { failedClauses, ...(v.inDoubtWith?.length ? { inDoubt: true } : {}) });
}

export function describeViolation(v: Violation): string {
  const where = [v.role, v.page !== undefined ? `page ${v.page}` : undefined].filter(Boolean).join(' ');
  const named = v.clause === 'SCHEMA' && v.schemaClauses?.length ? `${v.clause}: ${v.schemaClauses.join(', ')}` : v.inDoubtWith?.length ? `${[v.clause, ...v.inDoubtWith].join(' or ')}, in doubt` : v.clause;
  return `[${named}] ${where ? `${where}: ` : ''}${v.message}`;
}
