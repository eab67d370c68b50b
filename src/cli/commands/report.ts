/** `report`: builds the Allure HTML from reports/allure-results (Allure 3 CLI), keeping a history per target for trends. Opens nothing. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildAllureReport } from '../../harness/report/outputs/allure-report.js';
import { assertNoLeaks, filesUnder } from '../../harness/report/redaction/leak-scan.js';
import { reportPaths } from '../../harness/report/reports-folder/paths.js';
import { releaseHandedLock } from '../../harness/report/reports-folder/reports-lock.js';
import { DIGESTS_FILE, readDigestFile } from '../../harness/report/redaction/secret-digests.js';
import { parse } from '../args.js';
import type { Command } from './types.js';

export const reportCommand: Command = {
  summary: 'build the Allure HTML report (reports/allure-report) with history for trends; opens nothing',
  help: {
    description: 'Builds the Allure HTML with the Allure 3 CLI (a devDependency); opens nothing. Trends: one history file per target '
      + '(<history>/<target slug>-<hash>.jsonl, keyed by the target name and base URL the run recorded in environment.properties), '
      + 'one entry per run: building again from the same results replaces that run\'s entry. The report shows the run label '
      + '(target, implementation version, harness commit). Exit 0; 2 without results or without the allure CLI; 3 when allure generate fails.',
    flags: [
      { flag: '--results', value: 'DIR', text: 'Allure results to read', default: 'reports/allure-results' },
      { flag: '--out', value: 'DIR', text: 'where the HTML goes', default: 'reports/allure-report' },
      { flag: '--history', value: 'DIR', text: 'history folder kept between runs (one <target slug>-<hash>.jsonl per target, last 30 runs each)', default: 'reports/allure-history' },
      { flag: '--name', value: 'NAME', text: 'report title' },
      { flag: '--multi-file', text: 'a folder of files instead of one self-contained index.html' },
      { flag: '--scan', text: "search the HTML for the last run's secrets (reports/secret-digests.json) and delete it on a hit (exit 3); `run` builds its HTML this way in the background" },
    ],
    env: ['FTF_REPORTS_DIR', 'FTF_CLAUSE_URL', 'FTF_ALLURE_TIMEOUT_MS'],
    examples: [{ text: 'rebuild the HTML of the last run', command: 'ftf-conformance report' }],
  },
  async run(argv) {
    const { values: v } = parse('report', argv, {
      results: { type: 'string' },
      out: { type: 'string' },
      history: { type: 'string' },
      name: { type: 'string' },
      'multi-file': { type: 'boolean' },
      scan: { type: 'boolean' },
    });
    // The background build of a `run` holds that run's lock of the reports folder: released when done, however it ends.
    if (v.scan) process.once('exit', () => releaseHandedLock(reportPaths().root));
    const r = buildAllureReport({
      ...(v.results ? { resultsDir: v.results } : {}),
      ...(v.out ? { outDir: v.out } : {}),
      ...(v.history ? { historyDir: v.history } : {}),
      ...(v.name ? { name: v.name } : {}),
      singleFile: !(v['multi-file'] ?? false),
    });
    if (v.scan) {
      try {
        assertNoLeaks(filesUnder([r.outDir]), { digests: readDigestFile(join(reportPaths().root, DIGESTS_FILE)) });
      } catch (e) {
        rmSync(r.outDir, { recursive: true, force: true });
        throw e;
      }
    }
    console.log(`Allure report: ${r.index} (history: ${r.historyFile})${v.scan ? ', searched for secrets' : ''}`);
    for (const n of r.notes) console.log(`note   ${n}`);
    return 0;
  },
};
