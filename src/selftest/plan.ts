/**
 * The mutation plan: which Playwright projects to run (the clean reference and one per fault) and which tests
 * each runs. The runner writes it to a JSON file and names it in the run setting `plan` (FTF_RUN); playwright.mutation.config.ts
 * turns it into projects whose `metadata.fault` the worker fixture passes to startReferenceServer.
 */
import { readFileSync } from 'node:fs';
import { FAULTS } from '../reference/faults.js';
import { readRunSettings } from '../shared/run-settings.js';

export const CLEAN_PROJECT = 'clean';
/** The clean reference in production mode: production faults die there, so it must pass there too. */
export const CLEAN_PRODUCTION_PROJECT = 'clean-production';
/** The profile of a production-mode reference (repository-relative, read by specs/fixtures.ts). */
export const PRODUCTION_PROFILE = 'fixtures/targets/reference-production.yaml';

export interface PlanProject {
  /** `clean` or the fault's name. */
  name: string;
  fault: string | null;
  /** Conformant variants the reference runs with (the variant matrix); needs `profile`. */
  variants?: string[];
  /** Profile the worker loads (absolute, or relative to the repository root); default by mode. */
  profile?: string;
  /** The reference server's mode (default sandbox); production loads PRODUCTION_PROFILE. */
  mode?: 'sandbox' | 'production';
  /** Run only tests with these titles (undefined = every test). */
  only?: string[];
  /** Run every test except these titles. */
  except?: string[];
  /** Record each test's variant questions (the variant matrix's clean run; src/reference/variant-consults.ts). */
  recordConsults?: boolean;
}

export interface MutationPlan {
  projects: PlanProject[];
  /** Playwright's JSON report goes here. */
  reportFile: string;
  /** Playwright's outputDir (attachments of failures). */
  outputDir: string;
}

/** Without a plan file: the clean reference in both modes and every fault in its mode, each running the whole suite. */
export function defaultPlan(): MutationPlan {
  return {
    projects: [
      { name: CLEAN_PROJECT, fault: null },
      { name: CLEAN_PRODUCTION_PROJECT, fault: null, mode: 'production' },
      ...FAULTS.map((f): PlanProject => ({ name: f.name, fault: f.name, ...(f.profile === 'production' ? { mode: 'production' } : {}) })),
    ],
    reportFile: 'reports/mutation-playwright.json',
    outputDir: 'test-results/mutation',
  };
}

export function readPlan(env: NodeJS.ProcessEnv = process.env): MutationPlan {
  const file = readRunSettings(env).plan?.trim();
  return file ? (JSON.parse(readFileSync(file, 'utf8')) as MutationPlan) : defaultPlan();
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A pattern matching exactly these test titles. Playwright matches `grep` against the title path joined by
 * spaces with the tags appended (" @tag"), so a title is delimited by whitespace before and " @" or the end
 * after (a title that is a prefix of another does not select it).
 */
export function titlesPattern(titles: readonly string[]): RegExp {
  return new RegExp(`(?:^|\\s)(?:${titles.map(escapeRegExp).join('|')})(?= @|$)`);
}

/** The worker fixture's metadata for a project: the fault, and for production mode the server mode and profile. */
export function projectMetadata(p: PlanProject): { fault?: string; variants?: string[]; mode?: 'production'; profile?: string; recordConsults?: true } {
  return {
    ...(p.recordConsults ? { recordConsults: true as const } : {}),
    ...(p.fault ? { fault: p.fault } : {}),
    ...(p.variants?.length ? { variants: p.variants } : {}),
    ...(p.mode === 'production' ? { mode: 'production', profile: PRODUCTION_PROFILE } : {}),
    ...(p.profile ? { profile: p.profile } : {}),
  };
}

/**
 * A variant run targeted at some tests (variant-targets.ts) runs in ONE worker: each worker of a project
 * boots the harness and builds its own reference server, and a worker never serves two projects. Spread
 * over every worker, the second pass's 52 small projects started a worker for every 6 tests and ran at half
 * the first pass's rate; 11 tests of 4 targeted runs took 7 workers and 147 s (2026-11-27, load 11-18 on 2
 * cores). Projects still run side by side, so the pass keeps every worker busy.
 */
export function oneWorker(p: PlanProject): boolean {
  return p.fault === null && (p.variants?.length ?? 0) > 0 && p.only !== undefined;
}

/** A pattern no title matches/** A pattern no title matches (a project that must run nothing is better left out; this is a guard). */
export const MATCH_NOTHING = /(?!)/;
