import type { ConsumerCoverage, ConsumerOperation, ConsumerUse } from '../report.js';
import { escapeMarkup } from './escape-markup.js';

const h = (text: string | number) => escapeMarkup(String(text));

const WHERE: Record<ConsumerUse['in'], string> = {
  path: 'path parameter',
  query: 'query parameter',
  header: 'request header',
  body: 'request body field',
  'response-header': 'response header',
  'response-body': 'response body field',
};

/**
 * The "Consumer coverage" page of the HTML report (decision 0113): for each operation the
 * recording calls, the parameters, headers and fields its tests send and read, and which
 * tests rely on each: what the backend team cannot change without breaking the frontend.
 */
export function consumerCoverageSection(consumer: ConsumerCoverage | undefined): string {
  if (!consumer) return '';
  const { interactions: n } = consumer;
  const contract = consumer.contract.sameAsRun
    ? ''
    : `<p class="skipped">Recorded against ${h(consumer.contract.title)} ${h(consumer.contract.version)}, not the contract of this run.</p>`;
  return [
    '<section id="consumer"><h2>Consumer coverage</h2>',
    `<p>What <b>${h(consumer.consumer)}</b>'s tests rely on: ${h(n.total)} recorded interactions from ${h(consumer.tests)} tests over ${h(consumer.operations.length)} operations; replayed: <span class="passed">${h(n.passed)} passed</span>, <span class="failed">${h(n.failed)} failed</span>, <span class="skipped">${h(n.skipped)} skipped</span>. Changing what is listed here breaks a test of the frontend; the operations below it are not called.</p>`,
    contract,
    ...consumer.operations.map(operationDetails),
    consumer.unused.length
      ? `<p class="meta">Not called by the recording: ${consumer.unused.map((id) => `<code>${h(id)}</code>`).join(', ')}</p>`
      : '',
    '</section>',
  ].join('\n');
}

function operationDetails(op: ConsumerOperation): string {
  const failed = op.interactions.some((i) => i.verdict === 'failed');
  const rows = op.uses.map(
    (u) =>
      `<tr><td>${h(WHERE[u.in])}</td><td><code>${h(u.name)}</code>${u.types ? ` <span class="meta">${h(u.types.join(' | '))}</span>` : ''}</td><td>${h(u.statuses.join(', '))}</td><td>${u.tests.map(h).join('<br>')}</td></tr>`,
  );
  const keys = op.interactions.map(
    (i) =>
      `<li><code>${h(i.key)}</code>${i.verdict ? ` <span class="${h(i.verdict)}">${h(i.verdict)}</span>` : ''}</li>`,
  );
  return [
    `<details${failed ? ' open' : ''}>`,
    `<summary><code>${h(op.operationId)}</code> ${h(op.method)} ${h(op.path)} — statuses ${h(op.statuses.join(', '))} · ${h(op.tests.length)} test(s)${failed ? ' <span class="failed">failing</span>' : ''}</summary>`,
    '<div>',
    `<ul>${keys.join('')}</ul>`,
    `<table><thead><tr><th>Used as</th><th>Name</th><th>Statuses</th><th>Tests relying on it</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    '</div>',
    '</details>',
  ].join('\n');
}
