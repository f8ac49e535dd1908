import type { ReportedViolation } from './parse-violations.js';

/** The problem Prism sends for a violation under `--errors`. */
export interface PrismProblem {
  type: string;
  title?: string;
  detail?: string;
  validation?: { location?: string[]; severity?: string; message?: string }[];
}

/** One of Prism's own problems (its type is under stoplight.io/prism/errors), or undefined. */
export function prismProblem(body: Buffer): PrismProblem | undefined {
  try {
    const value = JSON.parse(body.toString('utf8')) as Partial<PrismProblem>;
    return typeof value.type === 'string' && value.type.includes('stoplight.io/prism/errors')
      ? (value as PrismProblem)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What Prism's problem says is wrong: its `validation` entries (their locations start with
 * `request`/`response`, or are request parts such as `body`), else its title: a 401 it made
 * for a missing token, a 422 or 500 without a list.
 */
export function prismProblemViolations(problem: PrismProblem, status: number): ReportedViolation[] {
  const side = status >= 500 ? 'response' : 'request';
  const list = problem.validation ?? [];
  if (list.length === 0)
    return [{ location: side, severity: 'Error', message: problem.title ?? problem.type }];
  return list.map((v) => {
    const location = (v.location ?? []).join('.');
    return {
      location: /^(request|response)\b/.test(location)
        ? location
        : location
          ? `${side}.${location}`
          : side,
      severity: v.severity ?? 'Error',
      message: v.message ?? problem.title ?? 'violation',
    };
  });
}
