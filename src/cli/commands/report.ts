/** `report`: builds the Allure HTML from reports/allure-results (Allure 3 CLI), keeping history for trends. Opens nothing. */
import { buildAllureReport } from '../../harness/report/allure-report.js';
import { parse } from '../args.js';
import type { Command } from './types.js';

export const reportCommand: Command = {
  summary: 'build the Allure HTML report (reports/allure-report) with history for trends; opens nothing',
  usage: 'report [--results DIR] [--out DIR] [--history DIR] [--name NAME] [--multi-file]',
  async run(argv) {
    const { values: v } = parse('report', argv, {
      results: { type: 'string' },
      out: { type: 'string' },
      history: { type: 'string' },
      name: { type: 'string' },
      'multi-file': { type: 'boolean' },
    });
    const r = buildAllureReport({
      ...(v.results ? { resultsDir: v.results } : {}),
      ...(v.out ? { outDir: v.out } : {}),
      ...(v.history ? { historyDir: v.history } : {}),
      ...(v.name ? { name: v.name } : {}),
      singleFile: !(v['multi-file'] ?? false),
    });
    console.log(`Allure report: ${r.index} (history: ${r.historyFile})`);
    return 0;
  },
};
