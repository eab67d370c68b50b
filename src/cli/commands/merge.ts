/**
 * `merge`: the gate of a sharded run. Takes the reports folders that `run --shard i/n` wrote (one per shard),
 * replays their blob reports through playwright.config.ts (Playwright's `merge-reports`, so every reporter sits
 * behind the redacting reporter as in a run: results.json with the outcome records, outcomes.json, junit.xml,
 * allure-results, the Playwright HTML), gathers their HAR files and secret digests, then evaluates exactly like
 * `run --evaluate-only`: one verdict, one exit code. A missing, doubled or foreign shard is a problem of the
 * verdict (non-conformant), never a silent gap.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { reportPaths } from '../../harness/report/reports-folder/paths.js';
import { DIGESTS_FILE, readDigestFile, DigestSet } from '../../harness/report/redaction/secret-digests.js';
import { parseCoverageGate } from '../../harness/report/verdicts/clause-coverage.js';
import { BLOB_DIR, checkShardSet, readShardManifest } from '../../harness/report/reports-folder/shards.js';
import { FtfError } from '../../shared/errors.js';
import { oneOf, parse, UsageError } from '../args.js';
import { playwright } from '../playwright.js';
import { runSuite, SUITE_FLAGS, TARGET_FLAG } from './run.js';
import type { Command } from './types.js';

/** Reports written by a run or an earlier merge: cleared so nothing of them leaks into this verdict. */
const OUTPUTS = ['results.json', 'outcomes.json', 'junit.xml', 'verdicts.json', 'allure-results', 'playwright-html', 'har', DIGESTS_FILE, BLOB_DIR];

export const mergeCommand: Command = {
  summary: 'merge the reports folders of `run --shard i/n` into one run and print its verdict (the gate)',
  help: {
    description: 'The gate of a sharded run. Takes the reports folders that `run --shard i/n` wrote (one per shard, each its own FTF_REPORTS_DIR), '
      + 'replays their blob reports through playwright.config.ts (behind the redacting reporter, as in a run), gathers their HAR files and secret digests, '
      + 'then evaluates like `run --evaluate-only`: waivers, verdicts.json, junit.xml, the summary and the Allure HTML. A missing, doubled or foreign shard '
      + 'is a PROBLEM of the verdict; a run split by phase (`run --phase shared --shard i/n` + one `run --phase exclusive`, against one external target) is whole with every shard and the exclusive phase. Exit 0 conformant, 1 non-conformant, 2 a folder is not a shard\'s reports folder, 3 internal error.',
    flags: [
      TARGET_FLAG,
      SUITE_FLAGS.failOn,
      SUITE_FLAGS.minClauses,
      SUITE_FLAGS.maxSkipped,
      SUITE_FLAGS.waivers,
      SUITE_FLAGS.noReport,
      { flag: 'SHARD_REPORTS_DIR', text: 'a reports folder written by `run --shard i/n`', positional: true, repeatable: true },
    ],
    env: ['FTF_TARGET', 'FTF_REPORTS_DIR', 'FTF_SPEC_DIR', 'FTF_SPECS_DIR'],
    examples: [{ text: 'the gate after two shard jobs', command: 'ftf-conformance merge shards/shard-1 shards/shard-2' }],
  },
  async run(argv) {
    const { values: v, positionals } = parse(
      'merge',
      argv,
      { target: { type: 'string' }, 'fail-on': { type: 'string' }, waivers: { type: 'string' }, 'no-report': { type: 'boolean' }, 'min-clauses': { type: 'string' }, 'max-skipped': { type: 'string' } },
      true,
    );
    const failOn = oneOf('merge', 'fail-on', v['fail-on'], ['must', 'should'] as const, 'must');
    const coverageGate = parseCoverageGate(v['min-clauses'], v['max-skipped'], (m) => new UsageError('merge', m));
    if (positionals.length === 0) throw new UsageError('merge', 'name the reports folders of the shards (each written by `run --shard i/n`)');
    const paths = reportPaths();
    const dirs = positionals.map((d) => resolve(d));
    const blobs: string[][] = [];
    for (const dir of dirs) {
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError('merge', `not a folder: ${dir}`);
      if (dir === paths.root) throw new UsageError('merge', `${dir} is also the merged output (FTF_REPORTS_DIR or reports/): give each shard its own folder`);
      const blobDir = join(dir, BLOB_DIR);
      const zips = existsSync(blobDir) ? readdirSync(blobDir).filter((f) => f.endsWith('.zip')) : [];
      if (zips.length === 0) throw new UsageError('merge', `${dir} holds no ${BLOB_DIR}/*.zip (was it written by \`run --shard i/n\`?)`);
      blobs.push(zips.map((z) => join(blobDir, z)));
    }
    const set = checkShardSet(dirs.map((d) => readShardManifest(d)));

    for (const out of OUTPUTS) rmSync(join(paths.root, out), { recursive: true, force: true });
    const staging = join(paths.root, '.merge-blobs');
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    const digests = new DigestSet();
    dirs.forEach((dir, k) => {
      // Blob names repeat across shards (report.zip): numbered so merge-reports sees each one.
      for (const zip of blobs[k]!) copyFileSync(zip, join(staging, `shard-${k + 1}-${basename(zip)}`));
      digests.add(readDigestFile(join(dir, DIGESTS_FILE)).toJSON());
      copyHar(join(dir, 'har'), paths.har, k + 1);
    });
    mkdirSync(paths.root, { recursive: true });
    // The shards' digests: the leak scan after the merge searches every merged file for those secrets too.
    writeFileSync(join(paths.root, DIGESTS_FILE), JSON.stringify(digests.toJSON()));
    try {
      const status = await playwright.run(['playwright', 'merge-reports', '--config', 'playwright.config.ts', staging], { FTF_BLOB_REPORT: '' });
      if (!existsSync(paths.playwrightJson)) {
        throw new FtfError('FTF_E_INTERNAL', `playwright merge-reports ended (exit ${status ?? 'killed'}) without writing ${paths.playwrightJson}`, { hint: 'see the output above for the cause' });
      }
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    const suite = await runSuite('merge', {
      ...(v.target ? { target: v.target } : {}),
      selection: set.selection,
      failOn,
      coverageGate,
      ...(v.waivers ? { waivers: v.waivers } : {}),
      allowMutations: false,
      certification: false,
      evaluateOnly: true,
      report: !(v['no-report'] ?? false),
      filtered: set.filtered,
      problems: set.problems,
    });
    await suite.open.close();
    return suite.exitCode;
  },
};

/** A shard's HAR files into the merged har/ (a name taken by another shard gets the shard's number). */
function copyHar(from: string, to: string, shard: number): void {
  if (!existsSync(from)) return;
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const target = existsSync(join(to, name)) ? join(to, `shard-${shard}-${name}`) : join(to, name);
    copyFileSync(join(from, name), target);
  }
}
