import { conditionalGetCheck } from './conditional-get.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `last_modified_conditional`: where a GET's 200 documents Last-Modified,
 * `If-Modified-Since` with that date (and no `If-None-Match`) answers 304 without a body,
 * and a date one day earlier the full 200 (RFC 9110 13.1.3).
 */
export const lastModifiedConditional = conditionalGetCheck({
  name: 'last_modified_conditional',
  description:
    'If-Modified-Since with the Last-Modified date answers 304 without a body; a day earlier answers 200',
  validator: 'Last-Modified',
  condition: 'If-Modified-Since',
  unusable(date) {
    const time = Date.parse(date);
    return Number.isNaN(time) || time > Date.now() + 60_000
      ? `Last-Modified ${date} is no usable past HTTP-date`
      : undefined;
  },
  other: (date) => new Date(Date.parse(date) - DAY_MS).toUTCString(),
});
