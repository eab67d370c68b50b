/**
 * `reference`: the embedded reference server on its own, until SIGINT/SIGTERM. Prints base_url, auth_url,
 * control_url and which credentials exist; the secrets are generated per start and printed only with
 * --print-secrets. The flags belong to the server (src/reference/cli-args.ts); this file is where the CLI
 * and the reference meet, so src/reference stays free of CLI and harness code.
 */
import { parseCli, UsageError, USAGE } from '../../reference/cli-args.js';
import { assertReferenceInstalled } from '../../embedded/reference-packages.js';
import { createVariants, profileFor } from '../../reference/variants.js';
import { EXIT } from '../errors.js';
import { onStopSignal } from '../process-group.js';
import type { Command } from './types.js';

export const referenceCommand: Command = {
  summary: 'start the reference server on its own (sandbox or production mode, optional fault and variants); stops on Ctrl-C',
  help: {
    description: 'Starts the reference server on 127.0.0.1 and prints base_url, auth_url, control_url and the client ids; secrets are generated per start and printed only with --print-secrets. '
      + 'Runs until SIGINT/SIGTERM/SIGHUP, then closes and exits 0; bad flags exit 2 before anything starts. Server choices: docs/reference-server.md.',
    flags: [
      { flag: '--port', value: 'N', text: 'port, 0 = any free port', default: '8080' },
      { flag: '--mode', value: 'sandbox|production', text: 'production has no control API and refuses API keys', default: 'sandbox' },
      { flag: '--no-control', text: 'a sandbox without the control API: no control_url, the clock runs in real time (not with --mode production)' },
      { flag: '--seed', value: 'N', text: 'seed of the reference data' },
      { flag: '--events', value: 'N', text: 'synthetic events to seed' },
      { flag: '--token-lifetime', value: 'SECONDS', text: 'access token lifetime' },
      { flag: '--fault', value: 'NAME', text: 'inject one named fault (docs/mutation.md)' },
      { flag: '--variant', value: 'NAME', text: 'a conformant alternate choice (docs/variants.md)', repeatable: true },
      { flag: '--persona', value: 'NAME', text: 'a named set of variants' },
      { flag: '--print-secrets', text: 'print the generated secrets' },
    ],
    env: [],
    examples: [{ text: 'a production-mode server on a free port', command: 'ftf-conformance reference --mode production --port 0' }],
  },
  async run(argv) {
    let parsed;
    try {
      parsed = parseCli(argv);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      if (err.message) console.error(`error: ${err.message}`);
      console.error(USAGE);
      return EXIT.cannotStart;
    }
    assertReferenceInstalled('`reference`');
    // Loaded here, not with the command: its packages are optional in the installed package (reference-packages.ts).
    const { startReferenceServer } = await import('../../reference/server.js');
    const server = await startReferenceServer(parsed.options);
    const mode = parsed.options.mode ?? 'sandbox';
    console.log(`FTF reference server (${mode}) listening`);
    console.log(`base_url:    ${server.baseUrl}`);
    console.log(`auth_url:    ${server.authUrl}`);
    console.log(`control_url: ${server.controlUrl ?? (mode === 'production' ? '(none: production mode)' : '(none: --no-control)')}`);
    console.log(`client ids:  ${Object.keys(server.secrets.clients).join(', ')}`);
    if (parsed.options.fault !== undefined) console.log(`fault:       ${parsed.options.fault}`);
    const variants = createVariants(parsed.options.variants);
    if (variants.active.length > 0) {
      console.log(`variants:    ${variants.active.join(', ')}`);
      console.log(`profile settings for these variants (docs/variants.md): ${JSON.stringify(profileFor(variants))}`);
    }
    console.log(`api keys for: ${mode === 'sandbox' ? Object.keys(server.secrets.apiKeys).join(', ') : '(not accepted in production)'}`);
    if (parsed.printSecrets) {
      console.log('secrets (generated for this start only):');
      console.log(JSON.stringify(server.secrets, null, 2));
    } else {
      console.log('secrets:     generated for this start; rerun with --print-secrets to show them');
    }
    // The documented stop: SIGINT/SIGTERM/SIGHUP close the server and exit 0 (process-group.ts routes them here).
    let remove: () => void = () => undefined;
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      remove = onStopSignal(resolve);
    });
    remove();
    await server.close();
    console.log(`stopped (${signal})`);
    return EXIT.conformant;
  },
};
