/**
 * The Playwright projects of a run against a SHARED target (FTF_TARGET set: every worker uses one server).
 * `shared` runs everything that may run side by side; `exclusive`, its teardown project, runs afterwards,
 * one at a time, the scenarios tagged @exclusive (scenario/isolation.ts). A teardown project runs even
 * when `shared` had failures (a dependent project would be skipped), but Playwright also runs it "in full",
 * ignoring the command line's --grep / --grep-invert / file filters: so the selection of THIS run is read
 * from the runner's argv and folded into the exclusive project's own grep. With --shard the phases cannot
 * order shards running elsewhere, and a teardown project would run whole in every shard: one plain project.
 */
import { EXCLUSIVE_TAG } from './scenario/isolation.js';

/** The two phases of a run against one shared target: Playwright projects, not environments. */
export const SHARED_PHASES = ['shared', 'exclusive'] as const;

export interface PhaseProject {
  name?: string;
  grep?: RegExp;
  grepInvert?: RegExp;
  teardown?: string;
  workers?: number;
  fullyParallel?: boolean;
}

/** Playwright test options that take a value (the token after them is not a file filter). */
const VALUED = new Set(['--grep', '-g', '--grep-invert', '--workers', '-j', '--project', '--reporter', '--output', '--shard', '--timeout',
  '--retries', '--repeat-each', '--max-failures', '--config', '-c', '--trace', '--tsconfig', '--global-timeout', '--update-snapshots', '-u', '--tag']);

interface Selection {
  grep: string[];
  grepInvert: string[];
  files: string[];
  shard: boolean;
}

export function cliSelection(argv: readonly string[]): Selection {
  const sel: Selection = { grep: [], grepInvert: [], files: [], shard: false };
  const at = argv.indexOf('test');
  const args = at < 0 ? [] : argv.slice(at + 1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => inline ?? args[++i] ?? '';
    if (flag === '--grep' || flag === '-g') sel.grep.push(value());
    else if (flag === '--grep-invert') sel.grepInvert.push(value());
    else if (flag === '--shard') {
      sel.shard = true;
      value();
    } else if (VALUED.has(flag)) {
      if (inline === undefined) i++;
    } else if (!a.startsWith('-')) sel.files.push(a);
  }
  return sel;
}

const NOTHING = /(?!)/;

/** Playwright matches a file filter (`path[:line]`) as a regular expression against the absolute file path. */
function fileMatches(filter: string, file: string): boolean {
  const pattern = filter.replace(/:\d+(:\d+)?$/, '');
  try {
    return new RegExp(pattern).test(file);
  } catch {
    return file.includes(pattern);
  }
}

/** `entryFile`: absolute path of the spec file that declares the scenarios (specs/conformance.spec.ts). */
export function sharedTargetProjects(argv: readonly string[], entryFile: string): PhaseProject[] {
  const sel = cliSelection(argv);
  if (sel.shard) return [{}];
  const tag = `@${EXCLUSIVE_TAG}\\b`;
  const excluded = sel.files.length > 0 && !sel.files.some((f) => fileMatches(f, entryFile));
  // Every condition must hold: the tag and each --grep (lookaheads over the title with its tags).
  const grep = excluded ? NOTHING : new RegExp(`^${[tag, ...sel.grep].map((g) => `(?=.*(?:${g}))`).join('')}`);
  return [
    { name: 'shared', grepInvert: new RegExp(tag), teardown: 'exclusive' },
    { name: 'exclusive', grep, ...(sel.grepInvert.length ? { grepInvert: new RegExp(sel.grepInvert.map((g) => `(?:${g})`).join('|')) } : {}), workers: 1, fullyParallel: false },
  ];
}
