/**
 * Client conformance (issue 27), the grading side: what a grader reads (labelled, redacted exchanges), what it
 * says (breaches with their evidence), and the verdict per CL-* clause. Nothing here holds a secret: every
 * secret value of an exchange is replaced by its label (ACCESS_TOKEN_3, REFRESH_TOKEN_1, ...) before a
 * grader or a report sees it (label.ts, through the harness's one Redactor).
 */
import type { Stall } from './stalls.js';

export type Environment = 'sandbox' | 'production';

/** One request a client sent to the grading server, and what the server did with it. Secret-free. */
export interface ClientExchange {
  /** 1-based, in arrival order over every server of the plan. */
  seq: number;
  /** Milliseconds since the plan started (arrival at the server). */
  atMs: number;
  environment: Environment;
  /** client_id of the credential (Basic, or the client its token was issued to), 'api-key:<user>', or null. */
  credential: string | null;
  method: string;
  /** Path from the server root, without the query (e.g. /api/v1/subscribe, /oauth/token). */
  path: string;
  query: Record<string, string>;
  /** Request headers, names lower-cased; secrets as `[REDACTED:LABEL]`. */
  headers: Record<string, string>;
  /** The parsed body (JSON or form), secrets labelled. */
  body?: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  /** Parsed JSON response (secrets labelled), or the text. */
  responseBody?: unknown;
  /** Processed by the server, then the connection was dropped: the client never saw `status`. */
  dropped: boolean;
  /** The plan's challenge that acted on this exchange, if any. */
  challenge: string | null;
}

/** What the client is asked to use: handed to the client as FTF_* variables (plan.ts clientEnv). */
export interface PlanClient {
  clientId: string;
  entityCode: string;
  secondEntityCode: string;
  forbiddenEntityCode: string;
  indicationCode: string;
  amount: string;
  currency: string;
  checkpointName: string;
  syncRuns: number;
  /** Code Authorisation: the client, the consenting user, the redirect URI, how many refresh cycles. */
  codeClientId: string;
  codeUser: string;
  redirectUri: string;
  refreshCycles: number;
  /** The user whose sandbox API key the client is given (FTF_API_KEY). */
  apiKeyUser: string;
}

/** A test plan (fixtures/client-plans/<name>.yaml). */
export interface ClientPlan {
  name: string;
  file: string;
  description: string;
  /** Plan seconds to real seconds: a duty of 30 s is shown in 30 * timeScale real seconds (FTF_TIME_SCALE). */
  timeScale: number;
  tokenLifetimeSeconds: number;
  /** Longest a `client run` waits for the client command (real seconds). */
  timeoutSeconds: number;
  client: PlanClient;
  /** Server-side challenges (src/reference/grading/types.ts GradingChallenges), as data. */
  challenges: Record<string, unknown>;
  /** What the client must do, in words (serve prints them; FTF_TASKS_FILE holds them for the client). */
  tasks: Array<{ id: string; text: string }>;
  /** Grader parameters. */
  grading: {
    /** Slack on measured intervals, real milliseconds (arrival jitter on a busy machine). */
    slackMs: number;
    /** A retry after a 500 waits at least this long (real ms). */
    minBackoffMs: number;
    pollIntervalSeconds: { min: number; max: number };
    /** A new client-credentials token while the last had more than this share of its lifetime left breaks reuse. */
    reuseShare: number;
  };
}

/** One observed breach of a duty, with the exchanges that show it. */
export interface Breach {
  message: string;
  exchanges: number[];
}

/** A grader's finding: the duty had no occasion to show (not judged), or it was judged on `occasions` cases. */
export type GraderResult =
  | { judged: false; reason: string }
  | { judged: true; occasions: number; breaches: Breach[] };

export interface GradingInput {
  exchanges: readonly ClientExchange[];
  plan: ClientPlan;
  /** When the grading process itself was stalled (stalls.ts): the lateness graders take it off. */
  stalls?: readonly Stall[];
}

export interface Grader {
  clause: string;
  /** One line: what this grader looks at. */
  judges: string;
  grade(input: GradingInput): GraderResult;
}

export type ClauseStatus = 'passed' | 'failed' | 'warned' | 'not-judged';

export interface ClauseVerdict {
  clause: string;
  level: 'must' | 'should';
  says: string;
  status: ClauseStatus;
  /** Why not judged, or how many occasions were judged. */
  note: string;
  breaches: Array<Breach & { evidence: string[] }>;
}

export interface ClientVerdicts {
  format: 'ftf-client-verdicts/1';
  plan: string;
  overall: 'conformant' | 'non-conformant' | 'nothing-tested';
  exitCode: 0 | 1 | 2;
  counts: Record<ClauseStatus, number>;
  exchanges: number;
  clauses: ClauseVerdict[];
  /** Clauses this plan cannot judge black-box, with the reason (docs/client-conformance.md). */
  notJudgeable: Array<{ clause: string; reason: string }>;
  /** How often and how long the grading process was stalled during the run (the lateness graders took it off). */
  stalls: { count: number; totalMs: number };
}
