import { seededRandom } from '../../spec/schema/seeded-random.js';
import {
  judgeExactlyOnce,
  keyedRequests,
  loadUntilKill,
  retryUntilKnown,
  sendKeyed,
  type ExactlyOnce,
  type KeyedAnswer,
  type KeyedRequest,
} from './keyed-crash-load.js';

/** How the rounds reach and break the servers under test. */
export interface CrashTarget {
  /** The API base to send to now (a server, or the balancer in front of several). */
  api(): string;
  /** SIGKILL of the server (or of one of the servers) of `round`. */
  kill(round: number): Promise<void>;
  /** Claims (status 0) the store holds right after the kill: requests the kill cut off. */
  claimsLeft(): Promise<number>;
  /** After the kill, before the retries: start it again on the same store (or not). */
  afterKill(round: number): Promise<void>;
  /** After the retries: start again what `afterKill` left dead (or nothing). */
  afterRetries(round: number): Promise<void>;
}

/** The numbers of a run, for the assertions and the report. */
export interface CrashTally {
  rounds: number;
  requests: number;
  /** Answered before the kill. */
  answeredBeforeKill: number;
  /** Sent, then cut off by the kill. */
  cut: number;
  /**
   * Of those, the ones whose create had committed before the kill (their retry replayed an
   * answer dated before it): the window between the write and the answer reaching the client.
   */
  cutButCommitted: number;
  /** Claims the kills left in the store, each to be freed for its retry. */
  claimsLeft: number;
  unsent: number;
  /** Requests the retries sent in all, and their answers 409 in-use, and unknown outcomes. */
  retriesSent: number;
  retriedInUse: number;
  retriedUnknown: number;
  /** Keys still without an outcome after their last try. */
  unanswered: string[];
  /** Keys whose answer sent once more differs from their final answer. */
  replaysDiffering: string[];
  verdict: ExactlyOnce;
}

/** Tries per request, and the pause between them: 5 s at most, a twelfth of the claims' lease. */
const TRIES = 50;
const PAUSE_MS = 100;

/**
 * `rounds` rounds of keyed creates (decision 0109): each sends `perRound` requests from
 * `concurrency` workers and kills the target once a random 10-60 % of them are answered; then
 * every request without a known outcome is sent again, same key and body, until it has one
 * (bounded); then every request of the round once more, which must replay its final answer.
 * At the end the store is counted per key through the API.
 *
 * @example
 * const tally = await runCrashRounds({ target, token, tag: 'file', rounds: 3, perRound: 240 });
 */
export async function runCrashRounds(options: {
  target: CrashTarget;
  token: string;
  tag: string;
  rounds: number;
  perRound: number;
  concurrency?: number;
  seed?: number;
}): Promise<CrashTally> {
  const { target, token, tag, rounds, perRound, concurrency = 16, seed = 108 } = options;
  const random = seededRandom(seed);
  const all: KeyedRequest[] = [];
  const finals = new Map<string, KeyedAnswer>();
  const tally: Omit<CrashTally, 'verdict'> = {
    rounds,
    requests: 0,
    answeredBeforeKill: 0,
    cut: 0,
    cutButCommitted: 0,
    claimsLeft: 0,
    unsent: 0,
    retriesSent: 0,
    retriedInUse: 0,
    retriedUnknown: 0,
    unanswered: [],
    replaysDiffering: [],
  };
  for (let round = 1; round <= rounds; round += 1) {
    const requests = keyedRequests(`${tag}-${Date.now().toString(36)}-r${round}`, perRound);
    all.push(...requests);
    const killAfter = random.int(Math.ceil(perRound * 0.1), Math.floor(perRound * 0.6));
    const load = await loadUntilKill({
      api: target.api(),
      token,
      requests,
      concurrency,
      killAfter,
      kill: () => target.kill(round),
    });
    const killedAt = Date.now();
    tally.claimsLeft += await target.claimsLeft();
    await target.afterKill(round);
    const retries = await retryUntilKnown({
      api: () => target.api(),
      token,
      requests: [...load.cut, ...load.unsent],
      concurrency,
      tries: TRIES,
      pauseMs: PAUSE_MS,
    });
    await target.afterRetries(round);
    for (const [key, answer] of [...load.answered, ...retries.answers]) finals.set(key, answer);
    for (const request of requests) {
      const again = await sendKeyed(target.api(), token, request);
      const final = finals.get(request.key);
      if (again?.status !== final?.status || again?.body !== final?.body) {
        tally.replaysDiffering.push(`${request.key}: ${again?.status} vs ${final?.status}`);
      }
    }
    tally.requests += requests.length;
    tally.answeredBeforeKill += load.answered.size;
    tally.cut += load.cut.length;
    tally.cutButCommitted += load.cut.filter((request) => {
      const answer = retries.answers.get(request.key);
      if (answer?.status !== 201) return false;
      return Date.parse((JSON.parse(answer.body) as { createdAt: string }).createdAt) < killedAt;
    }).length;
    tally.unsent += load.unsent.length;
    tally.retriesSent += retries.sent;
    tally.retriedInUse += retries.inUse;
    tally.retriedUnknown += retries.unknown;
    tally.unanswered.push(...retries.unanswered);
  }
  const verdict = await judgeExactlyOnce(target.api(), token, all, finals);
  return { ...tally, verdict };
}

/** One line of numbers for the test's output. */
export function describeTally(name: string, tally: CrashTally): string {
  const { verdict } = tally;
  return (
    `${name}: ${tally.rounds} kills, ${tally.requests} keyed creates ` +
    `(${tally.answeredBeforeKill} answered before the kill, ${tally.cut} cut off of which ` +
    `${tally.cutButCommitted} had committed, ${tally.claimsLeft} claims left held, ` +
    `${tally.unsent} unsent); retries sent ${tally.retriesSent} ` +
    `(${tally.retriedInUse} answered 409 in-use, ${tally.retriedUnknown} unknown outcomes); ` +
    `duplicates ${verdict.duplicates.length}, lost ${verdict.lost.length}, ` +
    `mismatched ${verdict.mismatched.length}, replays differing ${tally.replaysDiffering.length}`
  );
}
