/** Every load measurement of a bench run, as the report's tables and the write-cost plot list them. */
import type { BenchRun } from './bench-run.js';
import { postgresMeasurementRows } from './postgres/pg-report.js';
import type { MeasurementRow } from './report.js';
import { SCENARIOS, SUBJECT_NAMES } from './scenarios.js';
import { writeCostSvg } from './write-cost-plot.js';

export function measurementRows(run: BenchRun): MeasurementRow[] {
  const rows: MeasurementRow[] = [];
  for (const scenario of Object.values(SCENARIOS)) {
    const runs = run.loads.get(scenario.id);
    if (runs?.length)
      rows.push({
        id: scenario.id,
        subject: SUBJECT_NAMES[scenario.subject],
        request: scenario.request,
        runs,
      });
  }
  for (const users of run.settings.writeSizes) {
    for (const key of ['ref', 'js017', 'jsbeta'] as const) {
      const runs = run.loads.get(`${key}@${users}`);
      if (runs?.length)
        rows.push({
          id: `${key}@${users}`,
          subject: SUBJECT_NAMES[key],
          request: `POST /users at ${users.toLocaleString('en-US')} users`,
          runs,
        });
    }
  }
  rows.push(...postgresMeasurementRows(run));
  return rows;
}

/** The write-cost plot of this run's POST measurements. */
export function runWriteCostSvg(run: BenchRun): string | undefined {
  return writeCostSvg(measurementRows(run), {
    connections: run.settings.connections,
    maxSeconds: run.settings.writeMaxSeconds,
  });
}
