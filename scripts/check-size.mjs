/**
 * `npm run check:size` (part of `npm run check`, so CI runs it): no product file over 300 lines,
 * no function over 100 (issue 23). A ratchet while the giants are being split: the offenders of
 * the day are listed with their sizes in scripts/size-exceptions.json; a new offender, or a
 * listed one that grows, fails the check; a listed one that shrank or is within the limits now
 * is reported so its entry can be lowered or removed (decision 0066).
 *
 *   node scripts/check-size.mjs           check, print the offenders that remain
 *   node scripts/check-size.mjs --write   write today's offenders as the new list
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_FILE_LINES = 300;
export const MAX_FUNCTION_LINES = 100;

/** The product folders; tests, harnesses, generated files and the vendored worker aside. */
export const PRODUCT_ROOTS = [
  'bin',
  'spec',
  'core',
  'node-runtime',
  'reference-server',
  'conformance',
  'mocks',
  'proxy',
  'bench',
  'scripts',
];
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const EXCLUDED_FILES = new Set([
  'spec/openapi-types.ts',
  'spec/openapi.json',
  'mocks/browser/public/mockServiceWorker.js',
]);
const EXCLUDED_DIRS = new Set(['node_modules', 'dist', 'test', 'test-support']);

/** Whether a repository-relative path (forward slashes) is a product source file. */
export function isProductFile(path) {
  if (!SOURCE.test(path) || /\.d\.[mc]?ts$/.test(path) || /\.test(-d)?\.[mc]?ts$/.test(path))
    return false;
  if (EXCLUDED_FILES.has(path)) return false;
  const parts = path.split('/');
  if (!PRODUCT_ROOTS.includes(parts[0])) return false;
  return !parts.slice(0, -1).some((dir) => EXCLUDED_DIRS.has(dir));
}

/** Lines as `wc -l` counts them for a file that ends with a newline. */
export function countLines(text) {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/**
 * Every function in a source (declarations, expressions, arrows, methods, constructors,
 * accessors) with its span in lines, from its first token to its last: a nested function is
 * counted in its parent too (decision 0066). Names say where it is: `Class.method`, the variable
 * or property an anonymous function is assigned to, `<arrow>` inside its parent otherwise.
 */
export function measureFunctions(text, fileName = 'source.ts') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const line = (pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node, parent) => {
    let name = parent;
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      name = functionName(node, parent);
      const start = line(node.getStart(source));
      const end = line(node.getEnd());
      found.push({ name, start, end, lines: end - start + 1 });
    } else if (ts.isClassLike(node)) {
      name = node.name?.text ?? '<class>';
    }
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(source, '');
  return found;
}

function functionName(node, parent) {
  const own = node.name && (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name));
  let name;
  if (ts.isConstructorDeclaration(node)) name = 'constructor';
  else if (own) name = node.name.text;
  else if (node.name && ts.isStringLiteral(node.name)) name = node.name.text;
  else {
    const holder = node.parent;
    if (
      holder &&
      (ts.isVariableDeclaration(holder) ||
        ts.isPropertyAssignment(holder) ||
        ts.isPropertyDeclaration(holder)) &&
      ts.isIdentifier(holder.name)
    )
      name = holder.name.text;
  }
  const scoped = parent ? `${parent}.` : '';
  return name
    ? `${scoped}${name}`
    : `${scoped}<${ts.isArrowFunction(node) ? 'arrow' : 'function'}>`;
}

/** One file's offenders: its own size when over the limit, and each function over it. */
export function measureFile(path, text) {
  const offenders = { files: {}, functions: {} };
  const lines = countLines(text);
  if (lines > MAX_FILE_LINES) offenders.files[path] = lines;
  for (const fn of measureFunctions(text, path)) {
    if (fn.lines <= MAX_FUNCTION_LINES) continue;
    const key = `${path}#${fn.name}`;
    // Two functions of one name in one file (two `<arrow>`s): the larger one is the one to keep.
    offenders.functions[key] = Math.max(offenders.functions[key] ?? 0, fn.lines);
  }
  return offenders;
}

/**
 * The ratchet: what fails (new offenders, listed ones that grew) and what to tidy (listed ones
 * that shrank or are within the limits now).
 */
export function compare(measured, listed) {
  const failures = [];
  const tidy = [];
  for (const kind of ['files', 'functions']) {
    const limit = kind === 'files' ? MAX_FILE_LINES : MAX_FUNCTION_LINES;
    const what = kind === 'files' ? 'file' : 'function';
    for (const [key, lines] of Object.entries(measured[kind])) {
      const allowed = listed[kind]?.[key];
      if (allowed === undefined)
        failures.push(`${what} ${key}: ${lines} lines, over ${limit} and not in the list`);
      else if (lines > allowed)
        failures.push(`${what} ${key}: ${lines} lines, grew from ${allowed} (limit ${limit})`);
      else if (lines < allowed) tidy.push(`${what} ${key}: ${lines} lines now, lower its entry`);
    }
    for (const key of Object.keys(listed[kind] ?? {}))
      if (measured[kind][key] === undefined)
        tidy.push(`${what} ${key}: within ${limit} lines now (or gone), remove its entry`);
  }
  return { failures, tidy };
}

function productFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!EXCLUDED_DIRS.has(entry.name)) walk(full);
      } else {
        const path = relative(root, full).split(sep).join('/');
        if (isProductFile(path)) files.push(path);
      }
    }
  };
  for (const top of PRODUCT_ROOTS) {
    try {
      walk(join(root, top));
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
  }
  return files.sort();
}

/** Every product file's offenders, sorted by path. */
export function measureTree(root) {
  const all = { files: {}, functions: {} };
  for (const path of productFiles(root)) {
    const one = measureFile(path, readFileSync(join(root, path), 'utf8'));
    Object.assign(all.files, one.files);
    Object.assign(all.functions, one.functions);
  }
  return all;
}

function main() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const listFile = join(root, 'scripts/size-exceptions.json');
  const measured = measureTree(root);
  const nFiles = Object.keys(measured.files).length;
  const nFunctions = Object.keys(measured.functions).length;
  if (process.argv.includes('--write')) {
    const note = `Offenders of the size rule (files over ${MAX_FILE_LINES} lines, functions over ${MAX_FUNCTION_LINES}) allowed at their size, written by node scripts/check-size.mjs --write; shrink them, never add to them (decision 0066).`;
    writeFileSync(listFile, JSON.stringify({ note, ...measured }, null, 2) + '\n');
    console.log(
      `Wrote ${nFiles} files and ${nFunctions} functions to scripts/size-exceptions.json`,
    );
    return 0;
  }
  const listed = JSON.parse(readFileSync(listFile, 'utf8'));
  const { failures, tidy } = compare(measured, listed);
  console.log(
    `Size rule: ${nFiles} files over ${MAX_FILE_LINES} lines, ${nFunctions} functions over ${MAX_FUNCTION_LINES} left to split:`,
  );
  for (const [key, lines] of Object.entries(measured.files)) console.log(`  ${key}: ${lines}`);
  for (const [key, lines] of Object.entries(measured.functions)) console.log(`  ${key}: ${lines}`);
  if (tidy.length > 0) {
    console.log('Tidy scripts/size-exceptions.json:');
    for (const line of tidy) console.log(`  ${line}`);
  }
  if (failures.length > 0) {
    console.error(`Size rule FAILED (split it, or see decision 0066):`);
    for (const line of failures) console.error(`  ${line}`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = main();
