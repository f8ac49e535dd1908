// What a consumer harness checks of the recording its fixture app's tests leave behind with
// APIKIT_RECORD=FILE (issue 33, item 1; decision 0112): the format, the tests named, no secret,
// the same bytes on a second run. The recording is copied to reports/interactions/, where the
// replay side's harnesses find a real one.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { INTERACTION_FORMAT } from '../../spec/interactions/interaction-file.js';
import { parseInteractionFile } from '../../spec/interactions/parse-interaction-file.js';
import { serializeInteractionFile } from '../../spec/interactions/serialize-interactions.js';
import type { StepResult } from './consumer-fixture.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The recording's name in the fixture's folder (APIKIT_RECORD, relative to its working directory). */
export const RECORDING = 'interactions.json';

/** The environment that makes a fixture's tests record. */
export function recordingEnv(consumer: string): Record<string, string> {
  return { APIKIT_RECORD: RECORDING, APIKIT_RECORD_CONSUMER: consumer };
}

/** Runs the fixture's tests recording (no recording left from before), returns the file's text. */
export function recordedRun(app: string, run: () => StepResult): string {
  rmSync(join(app, RECORDING), { force: true });
  const result = run();
  expect(result.status, result.output).toBe(0);
  expect(existsSync(join(app, RECORDING)), result.output).toBe(true);
  return readFileSync(join(app, RECORDING), 'utf8');
}

export interface RecordingExpectations {
  consumer: string;
  /** Test files (relative to the app) that must be named by some interaction. */
  testFiles: string[];
  /** Operations the app's tests call, each of which must be recorded. */
  operations: string[];
  /** Strings that must not be in the file: the fixture's passwords. */
  secrets: string[];
}

/** Checks a recording's text; returns it parsed. */
export function expectRecording(text: string, expected: RecordingExpectations) {
  const file = parseInteractionFile(text);
  expect(file.format).toBe(INTERACTION_FORMAT);
  expect(file.consumer).toBe(expected.consumer);
  // Already in its canonical form: sorted, 2-space JSON, a trailing newline.
  expect(serializeInteractionFile(file)).toBe(text);
  const keys = file.interactions.map((i) => i.key);
  expect(new Set(keys).size).toBe(keys.length);
  for (const interaction of file.interactions) {
    expect(interaction.key).toMatch(/^\w+ \d{3} [0-9a-f]{6}$/);
    expect(
      interaction.key.startsWith(`${interaction.operationId} ${interaction.response.status} `),
    ).toBe(true);
  }
  const named = new Set(
    file.interactions.flatMap((i) => i.tests.filter((t) => t.name).map((t) => t.file)),
  );
  for (const testFile of expected.testFiles) expect([...named], testFile).toContain(testFile);
  const operations = new Set(file.interactions.map((i) => i.operationId));
  for (const operation of expected.operations)
    expect([...operations], operation).toContain(operation);
  for (const secret of [...expected.secrets, 'eyJ']) expect(text).not.toContain(secret);
  return file;
}

/** Copies the recording to reports/interactions/<name>.interactions.json; returns that path. */
export function keepRecording(text: string, name: string): string {
  const path = join(root, 'reports/interactions', `${name}.interactions.json`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/**
 * The committed sample recording (test/interactions/fixtures/) is what the fixture records
 * today; `APIKIT_UPDATE_RECORDING=1` writes it anew from this run.
 */
export function expectCommittedSample(keptPath: string, name: string): void {
  const sample = join(root, 'test/interactions/fixtures', `${name}.interactions.json`);
  if (process.env['APIKIT_UPDATE_RECORDING'] === '1') {
    mkdirSync(dirname(sample), { recursive: true });
    copyFileSync(keptPath, sample);
  }
  expect(
    readFileSync(sample, 'utf8'),
    `${sample} is not what the fixture records now: run this harness with APIKIT_UPDATE_RECORDING=1`,
  ).toBe(readFileSync(keptPath, 'utf8'));
}
