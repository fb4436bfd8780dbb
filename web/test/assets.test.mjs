// web/zip.mjs: archives and share links round-trip, and what a student could hand in to hurt the page is
// refused. Run with `node --test web/test/` (no build needed: it imports the source).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { zipFiles, unzipFiles, packLink, unpackLink, MAX_UNZIPPED, MAX_FILES } from '../zip.mjs';

const text = (s) => new TextEncoder().encode(s);

test('files round-trip through a zip, binary and empty ones included, folders left out', () => {
  const binary = Uint8Array.from({ length: 70000 }, (_, i) => (i * 2654435761) >>> 24);
  const files = [
    { path: 'bot/main.py', bytes: text('def move(request):\n    return "pass"  # é 😀\n') },
    { path: 'bot/weights.bin', bytes: binary },
    { path: 'empty.txt', bytes: new Uint8Array(0) },
  ];
  const back = unzipFiles(zipFiles(files));
  assert.deepEqual(back.map((f) => f.path), files.map((f) => f.path));
  for (let i = 0; i < files.length; i++) assert.deepEqual(back[i].bytes, files[i].bytes);

  // Another tool's archive with a folder entry and a stored (uncompressed) file.
  const other = zipSync({ 'src/': new Uint8Array(0), 'src/a.js': [text('export {}'), { level: 0 }] });
  assert.deepEqual(unzipFiles(other).map((f) => f.path), ['src/a.js']);
});

test('names that leave the archive are refused', () => {
  for (const name of ['../x', 'a/../../x', '/etc/passwd', 'C:/x', '..\\x']) {
    const zip = zipSync({ [name]: text('x') });
    assert.throws(() => unzipFiles(zip), /unsafe file name/, name);
  }
  assert.throws(() => zipFiles([{ path: '../x', bytes: text('x') }]), /unsafe file name/);
});

/** `zip` (one entry, from fflate) with the entry's unpacked size in both its headers set to `size`. */
function claimSize(zip, size) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  view.setUint32(22, size, true); // the local header's
  const central = view.getUint32(zip.length - 22 + 16, true); // where the end record says the directory is
  view.setUint32(central + 24, size, true); // the directory's
  return zip;
}

test('a zip bomb is refused: too big in all, too many files, or an entry larger than it says', () => {
  // Refused from the directory alone, before anything is inflated (the entry holds 64 KB of zeros).
  const big = claimSize(zipSync({ 'big.bin': new Uint8Array(65536) }), MAX_UNZIPPED + 1024 * 1024);
  assert.throws(() => unzipFiles(big), /unpacks to 21\.0 MB: at most 20\.0 MB/);

  const many = {};
  for (let i = 0; i <= MAX_FILES; i++) many[`f${i}.py`] = new Uint8Array(0);
  assert.throws(() => unzipFiles(zipSync(many, { level: 0 })), /holds 501 files: at most 500/);

  // An entry whose headers claim 10 bytes but which inflates to 1 MB stops at 10.
  const liar = claimSize(zipSync({ 'liar.bin': new Uint8Array(1024 * 1024) }), 10);
  assert.throws(() => unzipFiles(liar), /more than its header says/);
});

test('what is not a zip, or is damaged, is refused with a clear message', () => {
  assert.throws(() => unzipFiles(text('hello, not a zip')), /not a zip archive/);
  const zip = zipFiles([{ path: 'a.py', bytes: text('print(1)\n'.repeat(100)) }]);
  const broken = zip.slice();
  broken[40] ^= 0xff; // inside the deflated data
  assert.throws(() => unzipFiles(broken), /damaged/);
});

test('a link packs code and unpacks it again', () => {
  for (const code of ['', 'print(1)', 'def move(r):\n\treturn "é😀"\n'.repeat(500)]) {
    const link = packLink(code);
    assert.match(link, /^[A-Za-z0-9_-]+$/);
    assert.equal(unpackLink(link), code);
  }
  assert.ok(packLink('x = 1\n'.repeat(1000)).length < 60, 'repetitive code packs small');
});

test('a garbled, cut or oversized link is refused', () => {
  const link = packLink('def move(request):\n    return request["moves"][0]\n');
  for (const bad of ['', 'not a link!', 'A', 'AAAA', 'zzzzzzzz', link.slice(0, -3), `${link}==`]) {
    assert.throws(() => unpackLink(bad), /this link does not hold code/, JSON.stringify(bad));
  }
  assert.throws(() => unpackLink(42), /this link does not hold code/);
  const huge = deflateRawSync(Buffer.alloc(3 * 1024 * 1024, 'a')).toString('base64url');
  assert.throws(() => unpackLink(huge), /over 2\.0 MB/);
});
