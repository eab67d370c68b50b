/**
 * The mutation plan: which Playwright projects to run (the clean reference and one per fault) and which tests
 * each runs. The runner writes it to a JSON file and names it in FTF_MUTATION_PLAN; playwright.mutation.config.ts
 * turns it into projects whose `metadata.fault` the worker fixture passes to startReferenceServer.
 */
import { readFileSync } from 'node:fs';
import { FAULTS } from '../reference/faults.js';

export const CLEAN_PROJECT = 'clean';
export const PLAN_ENV = 'FTF_MUTATION_PLAN';

export interface PlanProject {
  /** `clean` or the fault's name. */
  name: string;
  fault: string | null;
  /** Run only tests with these titles (undefined = every test). */
  only?: string[];
  /** Run every test except these titles. */
  except?: string[];
}

export interface MutationPlan {
  projects: PlanProject[];
  /** Playwright's JSON report goes here. */
  reportFile: string;
  /** Playwright's outputDir (attachments of failures). */
  outputDir: string;
}

/** Without a plan file: the clean reference and every sandbox fault, each running the whole suite. */
export function defaultPlan(): MutationPlan {
  return {
    projects: [
      { name: CLEAN_PROJECT, fault: null },
      ...FAULTS.filter((f) => f.profile === 'sandbox').map((f) => ({ name: f.name, fault: f.name })),
    ],
    reportFile: 'reports/mutation-playwright.json',
    outputDir: 'test-results/mutation',
  };
}

export function readPlan(env: NodeJS.ProcessEnv = process.env): MutationPlan {
  const file = env[PLAN_ENV]?.trim();
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

/** A pattern no title matches (a project that must run nothing is better left out; this is a guard). */
export const MATCH_NOTHING = /(?!)/;
