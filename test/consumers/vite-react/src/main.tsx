import { createRoot } from 'react-dom/client';
import App from './App';

async function enableMocking() {
  if (import.meta.env.VITE_API_MOCKS !== 'on') return;
  const { startBrowserMocks } = await import('user-order-apikit/mocks/browser');
  await startBrowserMocks({ baseUrl: location.origin, auth: 'off' });
}

enableMocking().then(() => createRoot(document.getElementById('root')!).render(<App />));
