/** `list`: the scenarios with their clause ids, tags and needs; with a target, which ones it will skip and why. */
import { describeProblem } from '../../harness/scenario/load.js';
import { missingCapabilities } from '../../harness/target/capabilities.js';
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
    const rows = selected.scenarios.map((s) => ({
      id: s.id,
      title: s.title,
      family: s.family,
      file: scenarioFile(s),
      clauses: s.covers,
      tags: s.tags,
      needs: s.needs,
      level: s.level,
      skipped_because: missingCapabilities(profile, s.needs),
    }));
    if (v.json) {
      console.log(
        JSON.stringify({ target: profile.name, scenarios: rows, properties: selected.extras.map((x) => ({ id: x.id, title: x.title, tags: x.tags })), problems: problems.map((p) => ({ file: p.file, errors: describeProblem(p) })) }, null, 2),
      );
    } else {
      for (const r of rows) {
        console.log(`${r.id}  (${r.family})  ${r.title}`);
        console.log(`    clauses: ${r.clauses.join(', ')}${r.tags.length ? `   tags: ${r.tags.map((t) => `@${t}`).join(' ')}` : ''}${r.needs.length ? `   needs: ${r.needs.join(', ')}` : ''}`);
        if (r.skipped_because.length) console.log(`    skipped on ${profile.name}: missing ${r.skipped_because.join(', ')}`);
      }
      for (const x of selected.extras) console.log(`${x.id}  (property)  ${x.title}`);
      for (const p of problems) console.log(`BROKEN ${p.file}\n${describeProblem(p).replace(/^/gm, '    ')}`);
      const skipped = rows.filter((r) => r.skipped_because.length).length;
      console.log(
        `${rows.length} scenario${rows.length === 1 ? '' : 's'} (${skipped} skipped on ${profile.name}), ${selected.extras.length} propert${selected.extras.length === 1 ? 'y' : 'ies'}, ${problems.length} broken file${problems.length === 1 ? '' : 's'}`,
      );
    }
    if (rows.length + selected.extras.length + problems.length === 0) {
      throw new FtfError('FTF_E_NOTHING_SELECTED', suite.scenarios.length ? 'the selection (--grep/--tag/--shard) matched no scenario' : 'no scenario found under specs/', {
        hint: 'check the pattern; `ftf-conformance list` without filters shows every scenario',
      });
    }
    return problems.length > 0 ? 1 : 0;
  },
};
