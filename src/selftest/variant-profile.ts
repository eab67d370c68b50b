/**
 * The target profile for a set of reference variants, generated from the registry's data (profileFor): the
 * embedded reference profile with each dotted setting (`paths.holdings`, `records.indication`, ...) written
 * in place. It is read back through the ordinary pipeline (readProfile: schema + semantic checks), so a
 * variant whose settings are not documented profile options fails here, before any scenario runs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { createVariants, profileFor, type ProfileValue } from '../reference/variants.js';
import { readProfile, type Profile } from '../harness/target/profile.js';
import { REFERENCE_PROFILE } from '../harness/target/load.js';

/** The profile's YAML text for `names` (variants or personas). */
export function variantProfileText(names: readonly string[]): string {
  const settings: Record<string, ProfileValue> = profileFor(createVariants(names));
  const doc = parseDocument(readFileSync(REFERENCE_PROFILE, 'utf8'));
  doc.set('name', `FTF reference server (embedded) with variants: ${names.join(', ')}`);
  for (const [key, value] of Object.entries(settings)) doc.setIn(key.split('.'), value);
  return doc.toString();
}

/** Writes the profile for `names` into `dir` and reads it back (validated); returns it. */
export function writeVariantProfile(dir: string, label: string, names: readonly string[]): Profile {
  const file = join(dir, `variant-${label}.yaml`);
  writeFileSync(file, variantProfileText(names));
  return readProfile(file);
}
