/**
 * The entries of a zip archive as text, for the leak scan: Playwright's HTML report embeds its data as a
 * base64 zip inside index.html, where neither a raw nor a base64 search can see a secret. Stored and deflated
 * entries only (what Playwright writes); anything else yields no entries rather than an error.
 */
import { inflateRawSync } from 'node:zlib';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export function isZip(buf: Buffer): boolean {
  return buf.length >= 22 && buf.readUInt32LE(0) === LOCAL;
}

export function zipEntries(buf: Buffer, maxEntryBytes = 256 * 1024 * 1024): Array<{ name: string; data: Buffer }> {
  const out: Array<{ name: string; data: Buffer }> = [];
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return out;
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  for (let n = 0; n < count && p + 46 <= buf.length && buf.readUInt32LE(p) === CENTRAL; n++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const next = p + 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const local = buf.readUInt32LE(p + 42);
    p = next;
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL) continue;
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + size);
    try {
      if (method === 0) out.push({ name, data: raw });
      else if (method === 8) out.push({ name, data: inflateRawSync(raw, { maxOutputLength: maxEntryBytes }) });
    } catch {
      // a damaged entry has no text to scan
    }
  }
  return out;
}
