import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planReportOutputs } from './report-outputs.js';

const where = (plan: ReturnType<typeof planReportOutputs>) =>
  plan.outputs.map((o) => [o.reporter, o.path]);

describe('planReportOutputs', () => {
  it('sends one file reporter to --output, or to stdout without it', () => {
    expect(where(planReportOutputs(['json'], 'out.json'))).toEqual([['json', 'out.json']]);
    expect(where(planReportOutputs(['junit'], undefined))).toEqual([['junit', undefined]]);
    expect(planReportOutputs(['console', 'html'], 'r.html')).toMatchObject({ console: true });
  });

  it('names the files in the --output directory when there are several', () => {
    const plan = planReportOutputs(['json', 'junit', 'html', 'json', 'console'], 'reports');
    expect(where(plan)).toEqual([
      ['json', join('reports', 'report.json')],
      ['junit', join('reports', 'report.junit.xml')],
      ['html', join('reports', 'report.html')],
    ]);
    expect(plan).toMatchObject({ console: true, directory: 'reports' });
  });

  it('refuses combinations that would mix outputs or ignore --output', () => {
    expect(() => planReportOutputs(['json', 'junit'], undefined)).toThrow(
      /need --output <directory>/,
    );
    expect(() => planReportOutputs(['console', 'json'], undefined)).toThrow(
      /both would go to stdout/,
    );
    expect(() => planReportOutputs(['console'], 'x')).toThrow(/--output is for the json/);
  });
});
