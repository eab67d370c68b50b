/**
 * `npm run bench`: every benchmark of docs/performance.md, one after the other, each printing its ratio
 * against a baseline measured in the same run. Select some with arguments:
 *   npx tsx bench/run-all.ts [overhead] [scale] [suite] [validation] [per-request]
 */
import { engineOverhead, printOverhead } from './engine-overhead.js';
import { perRequest, printPerRequest } from './per-request.js';
import { printScale, scale } from './scale.js';
import { printSuiteWall, suiteWall } from './suite-wall.js';
import { printValidation, validationThroughput } from './validation.js';

const all = ['overhead', 'scale', 'suite', 'validation', 'per-request'];
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : all;
for (const c of chosen) if (!all.includes(c)) throw new Error(`unknown benchmark ${c} (known: ${all.join(', ')})`);
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} CPUs, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
if (chosen.includes('validation')) printValidation(await validationThroughput());
if (chosen.includes('overhead')) printOverhead(await engineOverhead());
if (chosen.includes('scale')) printScale(await scale());
if (chosen.includes('suite')) printSuiteWall(await suiteWall());
if (chosen.includes('per-request')) printPerRequest(await perRequest());
