/*
 * The worker, as CommonJS source: evaluated from a string, so that it needs no file of its own
 * next to this module (it runs the same from dist/, under vitest, and in a bundle).
 */
export const WORKER_SOURCE = `
'use strict';
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');

/** Pieces per writev call (at most IOV_MAX, 1024 on Linux). */
const PIECES_PER_WRITE = 1024;
/** Bytes copied from a source file per read. */
const COPY_BUFFER_BYTES = 1 << 20;
/** Some platforms (Windows) and file systems cannot open or fsync a directory. */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EINVAL', 'EPERM']);

/** Files kept open for later jobs to copy from, by id: { fd, size, mtimeNs, ino, dev }. */
const kept = new Map();
let copyBuffer;

parentPort.on('message', (message) => {
  if (message.adopt !== undefined) {
    kept.set(message.adopt, { ...message.stat, adopted: true });
    return;
  }
  if (message.release !== undefined) {
    const file = kept.get(message.release);
    kept.delete(message.release);
    // A file adopted from the main thread is closed there (a descriptor belongs to the thread
    // that opened it, as far as Node is concerned).
    if (file !== undefined && file.adopted) parentPort.postMessage({ released: file.fd });
    else if (file !== undefined) closeQuietly(file.fd);
    return;
  }
  const { id, file, pieces, source, keep } = message;
  try {
    const stat = replace(file, pieces, source === undefined ? undefined : kept.get(source), keep);
    if (stat !== undefined) kept.set(id, stat);
    parentPort.postMessage({ id, kept: stat });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    parentPort.postMessage({
      id,
      error: { name: e.name, message: e.message, code: e.code, syscall: e.syscall },
    });
  }
});

function replace(file, pieces, source, keep) {
  const directory = path.dirname(file);
  // Same directory as the target: a rename is only atomic within one file system.
  const temp = path.join(directory, '.' + path.basename(file) + '.' + randomBytes(6).toString('hex') + '.tmp');
  let fd;
  let stat;
  try {
    // 'wx': a name collision fails loudly instead of two writers sharing one temp file; '+'
    // to read it back as the source of the next job, when kept.
    const flags = keep ? 'wx+' : 'wx';
    try {
      fd = fs.openSync(temp, flags);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
      fs.mkdirSync(directory, { recursive: true });
      fd = fs.openSync(temp, flags);
    }
    if (source !== undefined) checkSource(source);
    let from = 0;
    for (let i = 0; i <= pieces.length; i++) {
      const piece = pieces[i];
      if (i < pieces.length && piece instanceof Uint8Array && i - from < PIECES_PER_WRITE) continue;
      if (i > from) writeAll(fd, pieces.slice(from, i));
      from = i;
      if (i < pieces.length && !(piece instanceof Uint8Array)) {
        copyRange(source, piece, fd);
        from = i + 1;
      }
    }
    // Nothing written into it while it was copied from (the copy would be torn).
    if (source !== undefined) checkSource(source);
    fs.fsyncSync(fd);
    if (keep) {
      const s = fs.fstatSync(fd, { bigint: true });
      stat = { fd, size: Number(s.size), mtimeNs: String(s.mtimeNs), ino: String(s.ino), dev: String(s.dev) };
    } else {
      fs.closeSync(fd);
    }
    fd = undefined;
    fs.renameSync(temp, file);
    syncDirectory(directory);
  } catch (error) {
    if (fd !== undefined) closeQuietly(fd);
    if (stat !== undefined) closeQuietly(stat.fd);
    try {
      // After a rename (a failed fsync of the directory) this finds nothing to remove.
      fs.rmSync(temp, { force: true });
    } catch {}
    throw error;
  }
  return stat;
}

/** Throws unless the kept file is still exactly what was written (see KeptFile.intact). */
function checkSource(source) {
  if (source === undefined) throw sourceError('the file to copy from is closed');
  const s = fs.fstatSync(source.fd, { bigint: true });
  if (
    Number(s.size) !== source.size ||
    String(s.mtimeNs) !== source.mtimeNs ||
    String(s.ino) !== source.ino ||
    String(s.dev) !== source.dev
  )
    throw sourceError('the file to copy from changed since it was written');
}

function sourceError(message) {
  return Object.assign(new Error(message), { code: 'ESOURCE' });
}

/** Copies range.length bytes at range.offset of the source to fd (at its position). */
function copyRange(source, range, fd) {
  if (source === undefined) throw sourceError('a range to copy, but no file to copy from');
  if (range.offset < 0 || range.length < 0 || range.offset + range.length > source.size)
    throw sourceError('a range beyond the end of the file to copy from');
  copyBuffer ??= Buffer.allocUnsafeSlow(COPY_BUFFER_BYTES);
  let at = range.offset;
  const end = range.offset + range.length;
  while (at < end) {
    const read = fs.readSync(source.fd, copyBuffer, 0, Math.min(copyBuffer.length, end - at), at);
    if (read === 0) throw sourceError('the file to copy from ended early');
    writeAll(fd, [copyBuffer.subarray(0, read)]);
    at += read;
  }
}

/** Writes every byte of pieces in order: one writev, then whatever a short write left. */
function writeAll(fd, pieces) {
  let total = 0;
  for (const piece of pieces) total += piece.length;
  const written = fs.writevSync(fd, pieces);
  if (written === total) return;
  const rest = Buffer.concat(pieces).subarray(written);
  for (let offset = 0; offset < rest.length; ) offset += fs.writeSync(fd, rest, offset);
}

function syncDirectory(directory) {
  let fd;
  try {
    fd = fs.openSync(directory, 'r');
    fs.fsyncSync(fd);
  } catch (error) {
    if (!DIRECTORY_SYNC_UNSUPPORTED.has(error.code)) throw error;
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

function closeQuietly(fd) {
  try {
    fs.closeSync(fd);
  } catch {}
}
`;
