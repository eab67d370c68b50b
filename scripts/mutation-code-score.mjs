// The score of `npm run mutation:code` (issue 26, docs/mutation-code.md): Stryker's report (.ftf/stryker/mutation.json)
// joined with the written classification of the mutants it did not detect (fixtures/mutation-code/*.yaml, one file
// per folder of src/reference; the format: fixtures/mutation-code/README.md).
//
// Stryker's own score counts every undetected mutant against the suite. Issue 26's score sets aside the equivalent
// ones (a mutant the spec cannot observe), each with its written reason:
//   score = detected / (detected + undetected that are not classified equivalent)
// An undetected mutant with no classification counts as not equivalent (a miss until someone reads it). Entries:
//   - at: http/errors.ts:42:25     # file under src/reference, line and column as in summary.md; or lines
//                                  # (http/paging.ts:40-99: every mutant starting on them); or a file alone
//     mutator: Regex               # Stryker's mutator name (optional with a file alone: every mutator)
//     replacement: '/x/'           # optional: when one spot has several mutants of one mutator
//     verdict: equivalent          # equivalent | missed (the suite should catch it: a check is owed) | open (the spec
//                                  # leaves it open) | variant-only (reached only when the reference runs a variant,
//                                  # which this run's tests do not: not judged here); all but equivalent count as
//                                  # not detected
//     why: inside the variant detail-texts-other
// An entry that matches no undetected mutant is reported as stale (the code moved, or a new check now kills it).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export const VERDICTS = ['equivalent', 'missed', 'open', 'variant-only'];

/** The entries of every .yaml file of the folder; a malformed entry is an error naming its file and place. */
export function readClassificationDir(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort().flatMap((f) => readClassification(join(dir, f)));
}

/** The entries of one classification file; a malformed entry is an error naming it. */
export function readClassification(file) {
  if (!existsSync(file)) return [];
  const doc = parse(readFileSync(file, 'utf8')) ?? [];
  if (!Array.isArray(doc)) throw new Error(`${file}: a list of entries is expected`);
  return doc.map((e, i) => {
    const where = `${file}: entry ${i + 1}`;
    if (typeof e?.at !== 'string' || !/^[\w/.-]+\.ts(:\d+:\d+|:\d+-\d+)?$/.test(e.at)) throw new Error(`${where}: \`at\` must be <file>.ts, <file>.ts:<line>:<column> or <file>.ts:<first line>-<last line>, got ${JSON.stringify(e?.at)}`);
    if (!VERDICTS.includes(e.verdict)) throw new Error(`${where} (${e.at}): \`verdict\` must be one of ${VERDICTS.join(', ')}, got ${JSON.stringify(e.verdict)}`);
    if (typeof e.why !== 'string' || e.why.trim().length < 10) throw new Error(`${where} (${e.at}): \`why\` must say why, in words`);
    if (e.mutator === undefined && /:\d+:\d+$/.test(e.at)) throw new Error(`${where} (${e.at}): a spot needs its \`mutator\``);
    return { at: e.at, mutator: e.mutator, replacement: e.replacement, verdict: e.verdict, why: e.why.trim() };
  });
}

/** `file:line:column` of a mutant, the file under src/reference (as summary.md writes it). */
export const spotOf = (m) => `${m.file.replace(/^src\/reference\//, '')}:${m.location.start.line}:${m.location.start.column}`;

/** How precise an entry is: a spot (2), a range of lines (1), a whole file (0). The most precise match wins. */
const precision = (entry) => (/:\d+:\d+$/.test(entry.at) ? 2 : entry.at.includes(':') ? 1 : 0);

function matches(entry, m) {
  const spot = spotOf(m);
  const file = spot.slice(0, spot.indexOf(':'));
  const range = /^(.*):(\d+)-(\d+)$/.exec(entry.at);
  if (range) {
    const line = m.location.start.line;
    if (range[1] !== file || line < Number(range[2]) || line > Number(range[3])) return false;
  } else if (precision(entry) === 2 ? entry.at !== spot : entry.at !== file) return false;
  if (entry.mutator !== undefined && entry.mutator !== m.mutatorName) return false;
  return entry.replacement === undefined || entry.replacement === String(m.replacement ?? '');
}

/**
 * Joins the report's mutants ({file, ...Stryker's mutant}) with the entries: each undetected mutant gets the most
 * precise entry that matches it (a spot before a range of lines before a whole file; among equals, the first).
 */
export function score(results, entries) {
  const ordered = [...entries].sort((a, b) => precision(b) - precision(a));
  const used = new Set();
  const rows = results.map((m) => {
    if (m.status !== 'Survived' && m.status !== 'NoCoverage') return { m };
    const entry = ordered.find((e) => matches(e, m));
    if (entry) used.add(entry);
    return { m, entry };
  });
  const count = (pred) => rows.filter(pred).length;
  const detected = count(({ m }) => m.status === 'Killed' || m.status === 'Timeout');
  // Stryker counts a mutant whose tests overran their time budget as detected. On a loaded machine a correct run can
  // overrun too, so the score is also given with every timeout counted as not detected: the floor.
  const timeouts = count(({ m }) => m.status === 'Timeout');
  const undetected = rows.filter(({ m }) => m.status === 'Survived' || m.status === 'NoCoverage');
  const equivalent = undetected.filter((r) => r.entry?.verdict === 'equivalent').length;
  const missed = undetected.filter((r) => r.entry?.verdict === 'missed').length;
  const open = undetected.filter((r) => r.entry?.verdict === 'open').length;
  const variantOnly = undetected.filter((r) => r.entry?.verdict === 'variant-only').length;
  const unclassified = undetected.filter((r) => r.entry === undefined).length;
  const ignored = count(({ m }) => m.status === 'Ignored');
  const errors = count(({ m }) => m.status === 'CompileError' || m.status === 'RuntimeError');
  const nonEquivalent = detected + undetected.length - equivalent;
  return {
    rows,
    total: results.length,
    detected,
    undetected: undetected.length,
    equivalent,
    missed,
    open,
    variantOnly,
    unclassified,
    ignored,
    errors,
    timeouts,
    /** Detected of the mutants not set aside as equivalent (an unclassified one counts against). */
    scorePct: nonEquivalent ? (100 * detected) / nonEquivalent : undefined,
    /** The same with no timeout counted as detected (each a mutant no test was seen to fail). */
    floorPct: nonEquivalent ? (100 * (detected - timeouts)) / nonEquivalent : undefined,
    /** Stryker's own: detected of all valid mutants. */
    rawPct: detected + undetected.length ? (100 * detected) / (detected + undetected.length) : undefined,
    stale: entries.filter((e) => !used.has(e)),
  };
}
