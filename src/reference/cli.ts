/**
 * npm run reference -- --port 8080 [--mode sandbox|production] [--seed N] [--events N]
 *                      [--token-lifetime S] [--fault NAME] [--variant NAME]... [--persona NAME]
 *                      [--print-secrets]
 * Prints base_url, auth_url, control_url and where the credentials are. Secrets are generated per start and
 * printed only with --print-secrets. Bad flags: a clear message and exit code 2.
 */
import { parseCli, UsageError, USAGE } from './cli-args.js';
import { startReferenceServer } from './server.js';
import { createVariants, profileFor } from './variants.js';
import { FtfError } from '../shared/errors.js';

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseCli(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    if (err.message) console.error(`error: ${err.message}`);
    console.error(USAGE);
    process.exit(2);
  }
  const server = await startReferenceServer(parsed.options);
  const mode = parsed.options.mode ?? 'sandbox';
  console.log(`FTF reference server (${mode}) listening`);
  console.log(`base_url:    ${server.baseUrl}`);
  console.log(`auth_url:    ${server.authUrl}`);
  console.log(`control_url: ${server.controlUrl ?? '(none: production mode)'}`);
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
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof FtfError ? err.describe() : err);
  process.exit(1);
});
