import type { InteractionFile, RecordedTest } from './interaction-file.js';

/** Code-unit order, the same on every machine and locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Tests in the file's order: by file, then by name (a test without a name first). */
export function compareTests(a: RecordedTest, b: RecordedTest): number {
  return compareText(a.file, b.file) || compareText(a.name ?? '', b.name ?? '');
}

/** A JSON value with the keys of every object sorted (code-unit order), arrays in their order. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(value).sort())
    copy[name] = sortedKeys((value as Record<string, unknown>)[name]);
  return copy;
}

/** JSON with every object's keys sorted, indented by 2, no trailing newline. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortedKeys(value), null, 2);
}

/**
 * The file's text: `format` first, every other key sorted, 2-space JSON, a trailing newline;
 * interactions sorted by key and their tests by file and name. The same recording gives the
 * same bytes on every machine, and a diff shows only what changed.
 */
export function serializeInteractionFile(file: InteractionFile): string {
  const interactions = [...file.interactions]
    .map((interaction) => ({ ...interaction, tests: [...interaction.tests].sort(compareTests) }))
    .sort((a, b) => compareText(a.key, b.key));
  const { format, ...rest } = file;
  return `${stableStringify({ ...rest, interactions }).replace(/^\{/, `{\n  "format": ${JSON.stringify(format)},`)}\n`;
}
