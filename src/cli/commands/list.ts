/** `list`: the scenarios with their clause ids, tags and needs; with a target, which ones it will skip and why. */
import { describeProblem } from '../../harness/scenario/load.js';
import { planSelection, propertySkip } from '../../harness/scenario/plan.js';
import { FtfError } from '../../shared/errors.js';
import { parse } from '../args.js';
import { profileCapabilities, scenarioFile, selectedCatalogue, SELECTION_HELP, SELECTION_OPTIONS, selectionFlags } from '../scenarios.js';
import type { Command } from './types.js';

export const listCommand: Command = {
  summary: 'list scenarios with clause ids, tags and needs (and which the target would skip)',
  help: {
    description: 'Each scenario with family, title, clause ids, tags, needs and, for the chosen profile, whether it would be skipped and why; broken scenario files are listed with every problem. '
      + 'Starts nothing. Exit 0, 1 when a scenario file is broken, 2 when nothing matches.',
    flags: [
      { flag: '--target', value: 'FILE', text: 'say which scenarios this profile would skip', default: 'the embedded reference profile', env: 'FTF_TARGET' },
      ...SELECTION_HELP,
      { flag: '--json', text: 'print JSON' },
    ],
    env: ['FTF_TARGET', 'FTF_SPEC_DIR', 'FTF_SPECS_DIR'],
    examples: [{ text: 'the checkpoint scenarios', command: 'ftf-conformance list --grep "^checkpoints\\."' }],
  },
  async run(argv) {
    const { values: v } = parse('list', argv, { target: { type: 'string' }, ...SELECTION_OPTIONS, json: { type: 'boolean' } });
    const selected = selectedCatalogue(selectionFlags('list', v));
    const { suite, problems } = selected;
    const profile = profileCapabilities(v.target);
    // The plan every command shares (scenario/plan.ts): a clock-less form runs inside its scenario's test.
    const plans = planSelection(selected.scenarios, profile);
    const rows = plans.map(({ scenario: s, via, skip, missing }) => ({
      id: s.id,
      title: s.title,
      family: s.family,
      file: scenarioFile(s),
      clauses: s.covers,
      tags: s.tags,
      needs: s.needs,
      level: s.level,
      ...(s.clocklessForm !== undefined ? { clockless_form: s.clocklessForm } : {}),
      ...(via !== undefined ? { runs_as: via } : {}),
      skipped_because: skip === undefined ? [] : missing.length ? missing : [skip],
      ...(skip !== undefined ? { skip_reason: skip } : {}),
    }));
    const properties = selected.extras.map((x) => ({ id: x.id, title: x.title, tags: x.tags, clauses: x.covers, ...(propertySkip(x, profile) ? { skip_reason: propertySkip(x, profile) } : {}) }));
    if (v.json) {
      console.log(JSON.stringify({ target: profile.name, scenarios: rows, properties, problems: problems.map((p) => ({ file: p.file, ...(p.partial?.id ? { id: p.partial.id } : {}), errors: describeProblem(p) })) }, null, 2));
    } else {
      for (const r of rows) {
        console.log(`${r.id}  (${r.family})  ${r.title}`);
        console.log(`    clauses: ${r.clauses.join(', ')}${r.tags.length ? `   tags: ${r.tags.map((t) => `@${t}`).join(' ')}` : ''}${r.needs.length ? `   needs: ${r.needs.join(', ')}` : ''}${r.clockless_form ? `   clock-less form: ${r.clockless_form}` : ''}`);
        if (r.runs_as) console.log(`    runs as ${r.runs_as} on ${profile.name} (its clock-less form: the target has no clock control)`);
        if (r.skip_reason) console.log(`    skipped on ${profile.name}: ${r.skip_reason}`);
      }
      for (const x of properties) console.log(`${x.id}  (property)  ${x.title}${x.skip_reason ? `\n    skipped on ${profile.name}: ${x.skip_reason}` : ''}`);
      for (const p of problems) console.log(`BROKEN ${p.file}${p.partial?.id ? ` (${p.partial.id})` : ''}\n${describeProblem(p).replace(/^/gm, '    ')}`);
      const skipped = rows.filter((r) => r.skip_reason).length + properties.filter((x) => x.skip_reason).length;
      const forms = rows.filter((r) => r.runs_as).length;
      console.log(
        `${rows.length + properties.length} test${rows.length + properties.length === 1 ? '' : 's'}: ${rows.length} scenario${rows.length === 1 ? '' : 's'} (${forms} as clock-less form), ${properties.length} propert${properties.length === 1 ? 'y' : 'ies'}; ${skipped} skipped on ${profile.name}; ${problems.length} broken file${problems.length === 1 ? '' : 's'} (errored in a run)`,
      );
    }
    if (rows.length + properties.length + problems.length === 0) {
      throw new FtfError('FTF_E_NOTHING_SELECTED', suite.scenarios.length ? 'the selection (--grep/--tag/--shard) matched no scenario' : 'no scenario found under specs/', {
        hint: 'check the pattern; `ftf-conformance list` without filters shows every scenario',
      });
    }
    return problems.length > 0 ? 1 : 0;
  },
};
