// Zip archives and share links for the code players, on fflate; bundled by scripts/web-assets.sh into
// dist/code/zip.js and loaded only when a page packs or unpacks code.
//
//   zipFiles([{ path: 'bot/main.py', bytes }])  -> Uint8Array (a .zip)
//   unzipFiles(zipBytes)                         -> [{ path, bytes }]   (refuses unsafe or oversized archives)
//   packLink('print(1)')                         -> 'KyjKzCvRMNQEAA'     (deflate, then base64url)
//   unpackLink('KyjKzCvRMNQEAA')                 -> 'print(1)'
//
// Archives come from students, so unpacking trusts nothing in them: names must stay inside the archive
// (no absolute paths, no `..`), at most MAX_FILES files and MAX_UNZIPPED bytes unpacked in all (a zip bomb
// is refused from its directory, before anything is inflated), and each entry is inflated in small steps
// that stop as soon as it outgrows the size its header gave (an entry that lies about its size cannot
// make the page inflate gigabytes), then checked against its CRC.
import { zipSync, deflateSync, Inflate } from 'fflate';

export const MAX_FILES = 500;
export const MAX_UNZIPPED = 20 * 1024 * 1024;
export const MAX_LINK_TEXT = 2 * 1024 * 1024;

/** A .zip (deflated) of `files`, an array of `{ path, bytes: Uint8Array }`. */
export function zipFiles(files) {
  const entries = {};
  for (const { path, bytes } of files) {
    const name = safePath(String(path));
    if (Object.hasOwn(entries, name)) throw new Error(`two files are named ${JSON.stringify(name)}`);
    if (!(bytes instanceof Uint8Array)) throw new Error(`the bytes of ${JSON.stringify(name)} are not a Uint8Array`);
    entries[name] = [bytes, { level: 6 }];
  }
  return zipSync(entries);
}

/**
 * The files of a .zip as an array of `{ path, bytes }` in archive order, folders left out. Throws an Error
 * that says why for an archive that is not a zip, is damaged or encrypted, has a name that leaves the
 * archive, or unpacks to more than MAX_FILES files or MAX_UNZIPPED bytes.
 */
export function unzipFiles(bytes) {
  if (!(bytes instanceof Uint8Array)) throw new Error('unzipFiles needs the archive as a Uint8Array');
  const entries = readDirectory(bytes);
  const files = entries.filter((e) => !e.folder);
  if (files.length > MAX_FILES) {
    throw new Error(`this archive holds ${files.length} files: at most ${MAX_FILES} are accepted`);
  }
  const total = files.reduce((sum, e) => sum + e.size, 0);
  if (total > MAX_UNZIPPED) {
    throw new Error(`this archive unpacks to ${mb(total)}: at most ${mb(MAX_UNZIPPED)} are accepted ` +
      '(is it a zip bomb?)');
  }
  return files.map((e) => ({ path: e.path, bytes: extract(bytes, e) }));
}

/** `text` as a short string for a link: UTF-8, deflated at level 9, base64url without padding. */
export function packLink(text) {
  return toBase64Url(deflateSync(new TextEncoder().encode(String(text)), { level: 9 }));
}

/** The text that `packLink` packed into `s`; throws an Error for anything else, or over MAX_LINK_TEXT bytes. */
export function unpackLink(s) {
  const bad = (why) => new Error(`this link does not hold code that can be read (${why})`);
  if (typeof s !== 'string' || !/^[A-Za-z0-9_-]+$/.test(s)) throw bad('it is empty or has characters base64url does not use');
  if (s.length % 4 === 1) throw bad('it is cut short');
  let packed;
  try {
    const binary = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    packed = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    throw bad('not base64url');
  }
  let raw;
  try {
    raw = inflateCapped(packed, MAX_LINK_TEXT, 'the code');
  } catch (e) {
    if (e.capped) throw new Error(`this link's code is over ${mb(MAX_LINK_TEXT)}: it is not accepted`);
    throw bad(`not deflate data: ${e.message}`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw bad('not UTF-8 text');
  }
}

// ---- the archive's directory ---------------------------------------------------------------------

const u16 = (b, i) => b[i] | (b[i + 1] << 8);
const u32 = (b, i) => (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
const u64 = (b, i) => u32(b, i) + u32(b, i + 4) * 0x100000000;
const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const damaged = (why) => new Error(`this is not a zip archive, or it is damaged (${why})`);

/** The central directory's entries: `{ path, folder, method, crc, csize, size, local }`. */
function readDirectory(b) {
  // The end-of-directory record: the last 22 bytes, or earlier if the archive has a comment.
  let end = -1;
  for (let i = b.length - 22; i >= 0 && i >= b.length - 22 - 0xffff; i--) {
    if (u32(b, i) === 0x06054b50) { end = i; break; }
  }
  if (end < 0) throw damaged('no end-of-directory record');
  let count = u16(b, end + 10);
  let offset = u32(b, end + 16);
  if (end >= 20 && u32(b, end - 20) === 0x07064b50) { // Zip64
    const z = u64(b, end - 12);
    if (z + 56 > b.length || u32(b, z) !== 0x06064b50) throw damaged('bad Zip64 record');
    count = u64(b, z + 32);
    offset = u64(b, z + 48);
  }
  // Each entry takes at least 46 bytes: a count beyond that is a lie, and never worth looping over.
  if (count > (b.length - offset) / 46) throw damaged('the directory is shorter than its count of entries');
  const entries = [];
  for (let i = 0, o = offset; i < count; i++) {
    if (o + 46 > b.length || u32(b, o) !== 0x02014b50) throw damaged('a bad directory entry');
    const flags = u16(b, o + 8);
    const nameLength = u16(b, o + 28), extraLength = u16(b, o + 30), commentLength = u16(b, o + 32);
    if (o + 46 + nameLength + extraLength > b.length) throw damaged('a directory entry runs past the end');
    const nameBytes = b.subarray(o + 46, o + 46 + nameLength);
    let name;
    try {
      name = new TextDecoder('utf-8', { fatal: true }).decode(nameBytes);
    } catch {
      name = String.fromCharCode(...nameBytes); // an old tool's code page: read as Latin-1
    }
    let csize = u32(b, o + 20), size = u32(b, o + 24), local = u32(b, o + 42);
    if (csize === 0xffffffff || size === 0xffffffff || local === 0xffffffff) {
      // Zip64: the real values are in the extra field 0x0001, in this order, for those that overflowed.
      for (let x = o + 46 + nameLength; x + 4 <= o + 46 + nameLength + extraLength;) {
        const id = u16(b, x), len = u16(b, x + 2);
        if (id === 0x0001) {
          let p = x + 4;
          const next = () => { const v = u64(b, p); p += 8; return v; };
          if (size === 0xffffffff) size = next();
          if (csize === 0xffffffff) csize = next();
          if (local === 0xffffffff) local = next();
          break;
        }
        x += 4 + len;
      }
    }
    const entry = {
      name, method: u16(b, o + 10), crc: u32(b, o + 16), csize, size, local,
      folder: name.endsWith('/') || name.endsWith('\\'),
    };
    entry.path = entry.folder ? name : safePath(name);
    if (flags & 1) throw new Error(`${JSON.stringify(name)} is encrypted: zip archives with passwords are not accepted`);
    entries.push(entry);
    o += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * `name` as a relative path with `/` separators; throws for one that could leave the folder it is
 * unpacked into (absolute, a drive letter, `..`) or is empty.
 */
function safePath(name) {
  const path = name.replace(/\\/g, '/');
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || parts.includes('..') || !parts.length || /\0/.test(path)) {
    throw new Error(`the archive has an unsafe file name, ${JSON.stringify(name)}: names must stay inside ` +
      'the archive (no absolute paths, no "..")');
  }
  return parts.join('/');
}

/** The unpacked bytes of entry `e`, checked against its size and CRC. */
function extract(b, e) {
  const at = e.local;
  if (at + 30 > b.length || u32(b, at) !== 0x04034b50) throw damaged(`no local header for ${e.path}`);
  const start = at + 30 + u16(b, at + 26) + u16(b, at + 28);
  if (start + e.csize > b.length) throw damaged(`${e.path} runs past the end`);
  const packed = b.subarray(start, start + e.csize);
  let out;
  if (e.method === 0) {
    out = packed.slice();
  } else if (e.method === 8) {
    try {
      out = inflateCapped(packed, e.size, e.path);
    } catch (err) {
      throw err.capped ? new Error(`${e.path} unpacks to more than its header says: not accepted (a zip bomb?)`)
        : damaged(`${e.path}: ${err.message}`);
    }
  } else {
    throw new Error(`${e.path} is compressed with method ${e.method}: only stored and deflated files are accepted`);
  }
  if (out.length !== e.size) throw damaged(`${e.path} unpacks to ${out.length} bytes, not ${e.size}`);
  if (crc32(out) !== e.crc) throw damaged(`${e.path} fails its CRC check`);
  return out;
}

/**
 * Raw DEFLATE data inflated in small steps; throws an Error with `capped` set as soon as the output
 * passes `cap` bytes, so a bomb costs no more than `cap` bytes of work and memory.
 */
function inflateCapped(data, cap, what) {
  const chunks = [];
  let total = 0, done = false;
  const inflater = new Inflate((chunk, final) => {
    total += chunk.length;
    if (total > cap) throw Object.assign(new Error(`${what} is over ${cap} bytes`), { capped: true });
    if (chunk.length) chunks.push(chunk);
    done = final;
  });
  // DEFLATE expands at most about 1032 times, so 1 KiB steps add at most about 1 MB each.
  const STEP = 1024;
  if (!data.length) throw new Error('no data');
  for (let i = 0; i < data.length; i += STEP) {
    inflater.push(data.subarray(i, i + STEP), i + STEP >= data.length);
  }
  if (!done) throw new Error('unexpected end of data');
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

let crcTable;
function crc32(bytes) {
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  let c = -1;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
