// The browser mocks on msw 3's worker: the page marks itself ready and hands the mock API to
// the harness (msw3.test.ts), which then calls the API and a module of the app's own.
import { startBrowserMocks, type BrowserMocks } from 'user-order-apikit/mocks/browser';

declare global {
  interface Window {
    mocks?: BrowserMocks;
  }
}

window.mocks = await startBrowserMocks({ baseUrl: location.origin, auth: 'off' });
document.body.dataset['ready'] = 'yes';
