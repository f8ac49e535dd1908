import {
  INTERACTION_FORMAT,
  type InteractionFile,
  type RecordedTest,
} from '../spec/interactions/interaction-file.js';
import { currentTest } from './current-test.js';
import { createInteractionRecorder, type InteractionRecorder } from './interaction-recorder.js';
import { writeInteractions } from './interaction-file-writer.js';
import type { MockOutcome } from './mock-answerer.js';
import { nodeFileSystem, nodeProcess } from './node-process.js';

/** How `createMockApi({ record })` records (decision 0112). */
export interface RecordOptions {
  /**
   * The file the recording is merged into, relative to the working directory (Node only):
   * default `APIKIT_RECORD`'s; without either, the recording stays in memory
   * (`mock.interactions()`).
   */
  file?: string;
  /** The consumer's name in the file: default `APIKIT_RECORD_CONSUMER`, else package.json's name. */
  consumer?: string;
  /** The test making a request: default what Vitest or Jest tell (file and full name). */
  test?: () => RecordedTest | undefined;
}

/**
 * `true` (in memory, and into `APIKIT_RECORD`'s file when set), a file name, options, or `false`
 * (never, even with `APIKIT_RECORD` set). Left out: on when `APIKIT_RECORD` is set.
 */
export type RecordOption = boolean | string | RecordOptions;

/** The name of the package in the working directory, where Node can tell. */
function packageName(): string | undefined {
  try {
    const text = nodeFileSystem()?.readFileSync('package.json', 'utf8');
    const name = text === undefined ? undefined : (JSON.parse(text) as { name?: unknown }).name;
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    return undefined;
  }
}

/** Says a recording problem once per mock, never failing the request that met it. */
function reportOnce(): (error: unknown) => void {
  let told = false;
  return (error) => {
    if (told) return;
    told = true;
    console.error('[apikit mocks] recording interactions failed:', error);
  };
}

/** The recorder `option` (or `APIKIT_RECORD`) asks for, or undefined when not recording. */
export function startRecording(
  option: RecordOption | undefined,
  contract: { title: string; version: string },
): InteractionRecorder | undefined {
  const env = nodeProcess()?.env ?? {};
  if (option === false || (option === undefined && !env['APIKIT_RECORD'])) return undefined;
  const options: RecordOptions = typeof option === 'object' ? option : {};
  const named = typeof option === 'string' ? option : (options.file ?? env['APIKIT_RECORD']);
  // Resolved now: a test that changes the working directory must not move the recording.
  const cwd = nodeProcess()?.cwd();
  const file = named && cwd && !/^([a-zA-Z]:)?[\\/]/.test(named) ? `${cwd}/${named}` : named;
  const consumer = options.consumer ?? env['APIKIT_RECORD_CONSUMER'] ?? packageName() ?? 'app';
  const title = { title: contract.title, version: contract.version };
  const report = reportOnce();
  if (file && !nodeFileSystem())
    report(new Error(`${file} cannot be written here (no Node): use mock.interactions()`));
  const canWrite = Boolean(file && nodeFileSystem());
  return createInteractionRecorder({
    consumer,
    contract: title,
    test: options.test ?? currentTest,
    onChange: (interaction) => {
      if (!canWrite) return;
      try {
        writeInteractions(file!, {
          format: INTERACTION_FORMAT,
          consumer,
          contract: title,
          interactions: [interaction],
        });
      } catch (error) {
        report(error);
      }
    },
  });
}

/** `answer` recording each answered request with `recorder`; the answers stay as they are. */
export function recordingAnswers(
  answer: (request: Request) => Promise<MockOutcome>,
  recorder: InteractionRecorder,
): (request: Request) => Promise<MockOutcome> {
  const report = reportOnce();
  return async (request) => {
    let finish: ReturnType<InteractionRecorder['begin']> | undefined;
    try {
      finish = recorder.begin(request);
    } catch (error) {
      report(error);
    }
    const outcome = await answer(request);
    if (finish && outcome !== undefined && outcome !== 'network-error')
      await finish(outcome).catch(report);
    return outcome;
  };
}

/** An empty recording, what `mock.interactions()` gives when recording is off. */
export function emptyRecording(contract: { title: string; version: string }): InteractionFile {
  return {
    format: INTERACTION_FORMAT,
    consumer: 'app',
    contract: { title: contract.title, version: contract.version },
    interactions: [],
  };
}
