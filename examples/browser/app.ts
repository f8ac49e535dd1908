// The browser example of the mocks: plain DOM, no framework, no server but a static one. The
// page starts MSW's service worker over the mocks, logs in as the demo admin, lists users and
// creates one, all with the copyable client of examples/frontend. Bundled by
// scripts/build-browser.mjs; opened by browser-example.test.ts in headless Chromium.
import { ProblemError, UserClient, type UserDto } from '../frontend/user-client.js';
import { MOCK_DEMO_PASSWORDS, startBrowserMocks } from '../../mocks/browser/browser-entry.js';

const PAGE_SIZE = 10;

const status = element<HTMLParagraphElement>('#status');
const errorBox = element<HTMLParagraphElement>('#error');
const form = element<HTMLFormElement>('#create-user');
const rows = element<HTMLTableSectionElement>('#users tbody');

function element<T extends Element>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (!found) throw new Error(`the page has no ${selector}`);
  return found;
}

/** Shows an error: a problem's own detail (and its field errors), else the message. */
function showError(error: unknown): void {
  if (error instanceof ProblemError) {
    const fields = error.errors.map((e) => `${e.pointer}: ${e.detail}`).join('; ');
    errorBox.textContent = `${error.status} ${error.title}: ${error.detail}${fields ? ` (${fields})` : ''}`;
  } else {
    errorBox.textContent = error instanceof Error ? error.message : String(error);
  }
  errorBox.hidden = false;
}

function renderUsers(users: UserDto[], highlight?: number): void {
  // textContent only: user data never becomes markup.
  rows.replaceChildren(
    ...users.map((user) => {
      const tr = document.createElement('tr');
      tr.dataset.id = String(user.id);
      if (user.id === highlight) tr.className = 'created';
      for (const value of [user.id, user.name, user.email, user.age ?? '–', user.status]) {
        const td = document.createElement('td');
        td.textContent = String(value);
        tr.append(td);
      }
      return tr;
    }),
  );
}

async function main(): Promise<void> {
  // record: the page's interactions in memory, window.__apikitInteractions() (decision 0112).
  await startBrowserMocks({ baseUrl: location.origin, record: true });
  const client = new UserClient({ baseUrl: location.origin });
  status.textContent = 'Mocks running; logging in as admin@example.com…';
  await client.login({ username: 'admin@example.com', password: MOCK_DEMO_PASSWORDS.admin });

  const refresh = async (highlight?: number) => {
    // Newest first, so a created user shows on the first page.
    const page = await client.listUsers({ size: PAGE_SIZE, sort: ['id,desc'] });
    renderUsers(page.content, highlight);
    status.textContent = `${page.totalElements} users (newest ${page.content.length} shown), logged in as admin@example.com.`;
  };
  await refresh();

  const submit = form.querySelector('button')!;
  submit.disabled = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const age = String(data.get('age') ?? '');
    errorBox.hidden = true;
    submit.disabled = true;
    client
      .createUser({
        name: String(data.get('name') ?? ''),
        email: String(data.get('email') ?? ''),
        ...(age ? { age: Number(age) } : {}),
      })
      .then((user) => refresh(user.id))
      .catch(showError)
      .finally(() => (submit.disabled = false));
  });
  document.body.dataset.state = 'ready';
}

main().catch((error: unknown) => {
  status.textContent = 'The example could not start.';
  showError(error);
  document.body.dataset.state = 'failed';
});
