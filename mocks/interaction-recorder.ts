import {
  INTERACTION_FORMAT,
  type InteractionFile,
  type RecordedInteraction,
  type RecordedRequest,
  type RecordedResponse,
  type RecordedTest,
} from '../spec/interactions/interaction-file.js';
import { interactionKey } from '../spec/interactions/interaction-shape.js';
import {
  mergeInteraction,
  mergeInteractionLists,
} from '../spec/interactions/merge-interactions.js';
import { stableStringify } from '../spec/interactions/serialize-interactions.js';
import { redactRequest, redactResponse } from '../spec/interactions/redact-interaction.js';
import { maskVaryingRequest, maskVaryingResponse } from '../spec/interactions/varying-values.js';
import type { MockAnswer } from './mock-answerer.js';

/** The request headers that matter to the contract; the others are the runtime's or the app's. */
const KEPT_REQUEST_HEADERS = [
  'accept',
  'authorization',
  'content-type',
  'idempotency-key',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'prefer',
];

/** An ISO 8601 date-time, as the contract's `format: date-time` fields hold them. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export interface RecorderOptions {
  consumer: string;
  contract: { title: string; version: string };
  /** The test making a request (at the time it is made). */
  test: () => RecordedTest | undefined;
  /** Told about each interaction that is new or changed (a new shape, a new test of one). */
  onChange?: (interaction: RecordedInteraction) => void;
}

export interface InteractionRecorder {
  /**
   * Starts recording a request about to be answered (its test is taken now, its body read from
   * a copy); the returned function finishes with the mocks' answer.
   */
  begin(request: Request): (answer: MockAnswer) => Promise<void>;
  /** The recording so far. */
  file(): InteractionFile;
}

/** A body's text as JSON when it is JSON, else as text; undefined when empty. */
function parsedBody(text: string | null, contentType: string | null): unknown {
  if (text === null || text === '') return undefined;
  if (contentType && /[/+]json\b/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

async function recordedRequest(request: Request): Promise<RecordedRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  for (const name of KEPT_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    // `Accept: */*` is what every fetch sends unasked: the same as no Accept at all.
    if (value !== null && !(name === 'accept' && value === '*/*')) headers[name] = value;
  }
  const body = parsedBody(
    request.body ? await request.text() : null,
    request.headers.get('content-type'),
  );
  return {
    method: request.method,
    path: url.pathname,
    query: [...url.searchParams],
    headers,
    ...(body === undefined ? {} : { body }),
  };
}

function recordedResponse(answer: MockAnswer): RecordedResponse {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
  const body = parsedBody(answer.body, answer.headers.get('content-type'));
  return { status: answer.status, headers, ...(body === undefined ? {} : { body }) };
}

/**
 * The mocks' recorder of interactions (decision 0112): each answered request of a spec
 * operation becomes a {@link RecordedInteraction} (secrets replaced, values of the moment
 * masked), kept once per shape with every test that made it.
 */
export function createInteractionRecorder(options: RecorderOptions): InteractionRecorder {
  const byKey = new Map<string, RecordedInteraction>();
  // A timestamp between the recorder's start and now was made by the mock's clock during the
  // run (a created record's createdAt): a value of the moment. Seed data is older.
  const since = Date.now() - 1_000;
  const madeDuringRun = (text: string) => {
    if (!DATE_TIME.test(text)) return false;
    const time = Date.parse(text);
    return time >= since && time <= Date.now() + 60_000;
  };

  const add = (interaction: RecordedInteraction) => {
    const known = byKey.get(interaction.key);
    const next = known ? mergeInteraction(known, interaction) : interaction;
    if (known && stableStringify(known) === stableStringify(next)) return;
    byKey.set(interaction.key, next);
    options.onChange?.(next);
  };

  return {
    begin(request) {
      const test = options.test();
      const copy = request.clone();
      return async (answer) => {
        if (!answer.operationId) return; // the served documents, /healthz: not an operation
        const request = maskVaryingRequest(redactRequest(await recordedRequest(copy)));
        const requestId = answer.headers.get('x-request-id');
        const response = maskVaryingResponse(
          redactResponse(recordedResponse(answer)),
          (text) => text === requestId || madeDuringRun(text),
        );
        add({
          key: interactionKey(answer.operationId, request, response, answer.canned),
          operationId: answer.operationId,
          request,
          response,
          tests: test ? [test] : [],
          ...(answer.canned ? { canned: answer.canned } : {}),
        });
      };
    },
    file: () => ({
      format: INTERACTION_FORMAT,
      consumer: options.consumer,
      contract: options.contract,
      interactions: mergeInteractionLists([...byKey.values()]),
    }),
  };
}
