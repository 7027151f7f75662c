// @vitest-environment happy-dom
// The admin console (issue 33): only an admin gets it; searching users; the plan select; disable
// and delete ask first and send what they say; one's own account offers no demotion, disabling or
// deletion; an invitation's link is shown once with its Copy button, and an open one is revocable;
// the audit log reads as sentences. The server is a fake fetch that records what was sent.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { AdminUser, Invitation } from '@sealvault/protocol';
import { AdminConsole } from './AdminConsole.tsx';

const now = '2026-11-20T10:00:00.000Z';
const adminUser: AdminUser = {
  id: 'admin1',
  email: 'ada@example.test',
  name: 'Ada',
  role: 'admin',
  plan_id: 'unlimited',
  plan_name: 'Unlimited',
  disabled_at: null,
  email_verified: true,
  two_factor_enabled: false,
  created_at: now,
  last_sign_in_at: now,
  storage_used_bytes: 0,
  vault_count: 0,
};
const bob: AdminUser = {
  ...adminUser,
  id: 'bob1',
  email: 'bob@example.test',
  name: 'Bob',
  role: 'user',
  plan_id: 'free',
  plan_name: 'Free',
  two_factor_enabled: true,
  storage_used_bytes: 3 * 1024 * 1024,
  vault_count: 2,
};
const openInvitation: Invitation = {
  id: 'inv1',
  email: 'new@example.test',
  status: 'open',
  created_by: 'admin1',
  created_at: now,
  expires_at: null,
  used_at: null,
  used_by: null,
  revoked_at: null,
};

let role: 'user' | 'admin';
let refuse: boolean;
let sent: { method: string; url: string; body: unknown }[];

function answer(body: unknown, status = 200) {
  return Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
}

function fakeServer(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const raw = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
  const url = new URL(raw, 'http://localhost');
  const method = init.method ?? 'GET';
  const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
  sent.push({ method, url: url.pathname + url.search, body });
  const path = url.pathname;
  if (path === '/api/me')
    return answer({
      id: 'admin1',
      email: 'ada@example.test',
      full_name: 'Ada',
      role,
      current_plan_id: 'unlimited',
      created_at: now,
      updated_at: now,
      plan: { id: 'unlimited', name: 'Unlimited' },
    });
  if (path === '/api/admin/users') {
    const q = url.searchParams.get('q') ?? '';
    const users = [adminUser, bob].filter((u) => u.email.includes(q));
    return answer({ users, total: users.length, page: 1, per_page: 25 });
  }
  if (refuse && method !== 'GET')
    return answer({ error: { code: 'forbidden', message: 'Admin privileges required' } }, 403);
  if (path === '/api/admin/users/bob1' && method === 'PATCH')
    return answer({ user: { ...bob, ...(body as object) } });
  if (path === '/api/admin/users/bob1' && method === 'DELETE') return answer({ deleted: true });
  if (path === '/api/admin/users/bob1/two-factor' && method === 'DELETE')
    return answer({ user: { ...bob, two_factor_enabled: false } });
  if (path === '/api/admin/users/bob1/sessions' && method === 'GET')
    return answer({
      sessions: [
        {
          id: 's1',
          created_at: now,
          updated_at: now,
          expires_at: '2026-11-27T10:00:00.000Z',
          ip_address: '192.0.2.7',
          user_agent:
            'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
          current: false,
        },
        {
          id: 's2',
          created_at: now,
          updated_at: now,
          expires_at: '2026-11-27T10:00:00.000Z',
          ip_address: null,
          user_agent: null,
          current: true,
        },
      ],
    });
  if (path.startsWith('/api/admin/users/bob1/sessions') && method === 'DELETE')
    return answer({ revoked: path.endsWith('/sessions') ? 2 : 1 });
  if (path === '/api/admin/invitations' && method === 'GET')
    return answer({ invitations: [openInvitation] });
  if (path === '/api/admin/invitations' && method === 'POST')
    return answer(
      {
        invitation: { ...openInvitation, id: 'inv2', email: 'carol@example.test' },
        token: 'a'.repeat(43),
        url: `http://localhost:3000/auth?invite=${'a'.repeat(43)}`,
      },
      201,
    );
  if (path === '/api/admin/invitations/inv1' && method === 'DELETE')
    return answer({ invitation: { ...openInvitation, status: 'revoked', revoked_at: now } });
  if (path === '/api/admin/audit')
    return answer({
      entries: [
        {
          id: 'a1',
          actor_id: 'admin1',
          actor_email: 'ada@example.test',
          action: 'user.plan',
          target: 'bob1',
          details: { email: 'bob@example.test', from: 'free', to: 'pro' },
          created_at: now,
        },
        {
          id: 'a2',
          actor_id: 'admin-command',
          actor_email: null,
          action: 'user.role',
          target: 'bob1',
          details: { email: 'bob@example.test', from: 'user', to: 'admin' },
          created_at: now,
        },
      ],
      total: 2,
      page: 1,
      per_page: 25,
    });
  return answer({ error: { code: 'not_found', message: 'Not found' } }, 404);
}

beforeEach(() => {
  role = 'admin';
  refuse = false;
  sent = [];
  vi.stubGlobal('fetch', vi.fn(fakeServer));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderConsole(path = '/admin') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <AdminConsole />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const writes = () => sent.filter((s) => s.method !== 'GET');

it('tells a non-admin the console is not for them, and asks the admin API nothing', async () => {
  role = 'user';
  renderConsole();
  expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeTruthy();
  expect(sent.filter((s) => s.url.startsWith('/api/admin'))).toEqual([]);
});

it('lists and searches users, and changes a plan from its select', async () => {
  const user = userEvent.setup();
  renderConsole();
  const list = await screen.findByRole('list', { name: 'Users' });
  const card = within(list).getByRole('listitem', { name: 'bob@example.test' });
  expect(within(card).getByText('3.0 MB')).toBeTruthy();
  expect(within(card).getByText('Two-factor')).toBeTruthy();

  await user.type(screen.getByLabelText('Search users by email or name'), 'bob');
  await user.click(screen.getByRole('button', { name: 'Search' }));
  expect(await screen.findByText('1 user matching "bob"')).toBeTruthy();
  expect(sent.some((s) => s.url === '/api/admin/users?q=bob&page=1&per_page=25')).toBe(true);

  await user.selectOptions(within(card).getByLabelText('Plan'), 'pro');
  expect(writes()).toEqual([
    { method: 'PATCH', url: '/api/admin/users/bob1', body: { plan_id: 'pro' } },
  ]);
});

it('asks before disabling or deleting, and sends nothing on Cancel', async () => {
  const user = userEvent.setup();
  renderConsole();
  const card = await screen.findByRole('listitem', { name: 'bob@example.test' });

  await user.click(within(card).getByRole('button', { name: 'Delete' }));
  const del = screen.getByRole('dialog', { name: 'Delete bob@example.test?' });
  await user.click(within(del).getByRole('button', { name: 'Cancel' }));
  expect(writes()).toEqual([]);

  await user.click(within(card).getByRole('button', { name: 'Disable' }));
  const dialog = screen.getByRole('dialog', { name: 'Disable bob@example.test?' });
  expect(within(dialog).getByText(/signed out everywhere at once/)).toBeTruthy();
  await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
  expect(writes()).toEqual([
    { method: 'PATCH', url: '/api/admin/users/bob1', body: { disabled: true } },
  ]);
  await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

  await user.click(within(card).getByRole('button', { name: 'Delete' }));
  await user.click(
    within(screen.getByRole('dialog', { name: 'Delete bob@example.test?' })).getByRole('button', {
      name: 'Delete account',
    }),
  );
  expect(writes().at(-1)).toEqual({
    method: 'DELETE',
    url: '/api/admin/users/bob1',
    body: undefined,
  });
});

it("offers no demotion, disabling or deletion of one's own account", async () => {
  renderConsole();
  const card = await screen.findByRole('listitem', { name: 'ada@example.test' });
  expect(within(card).getByText('You')).toBeTruthy();
  expect(within(card).getByLabelText<HTMLSelectElement>('Role').disabled).toBe(true);
  expect(within(card).queryByRole('button', { name: 'Disable' })).toBeNull();
  expect(within(card).queryByRole('button', { name: 'Delete' })).toBeNull();
});

it('makes an invitation for an e-mail, shows its link once, and revokes an open one', async () => {
  const user = userEvent.setup();
  renderConsole('/admin?section=invitations');
  expect(await screen.findByRole('heading', { name: 'Invitations' })).toBeTruthy();
  await user.type(screen.getByLabelText('Email (optional)'), 'carol@example.test');
  await user.selectOptions(screen.getByLabelText('Expires'), '168');
  await user.click(screen.getByRole('button', { name: 'Create invitation' }));
  const link = await screen.findByLabelText<HTMLInputElement>('Invitation link');
  expect(link.value).toBe(`http://localhost:3000/auth?invite=${'a'.repeat(43)}`);
  expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
  expect(writes()).toEqual([
    {
      method: 'POST',
      url: '/api/admin/invitations',
      body: { email: 'carol@example.test', expires_in_hours: 168 },
    },
  ]);

  await user.click(
    screen.getByRole('button', { name: /^Revoke the invitation for new@example.test/ }),
  );
  expect(writes().at(-1)).toMatchObject({ method: 'DELETE', url: '/api/admin/invitations/inv1' });
});

it('shows the audit log as sentences with who did what', async () => {
  renderConsole('/admin?section=audit');
  const log = await screen.findByRole('list', { name: 'Audit log' });
  expect(within(log).getByText('Changed a plan')).toBeTruthy();
  expect(within(log).getByText(/by ada@example.test · bob@example.test · free → pro/)).toBeTruthy();
  // A role changed with `npm run admin` names the command, not an admin.
  expect(within(log).getByText(/by the admin command \(npm run admin\)/)).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Audit log' }).getAttribute('aria-current')).toBe('page');
});

it("lists a user's sessions and ends one, then all after a second click", async () => {
  const user = userEvent.setup();
  renderConsole();
  const card = await screen.findByRole('listitem', { name: 'bob@example.test' });
  await user.click(within(card).getByRole('button', { name: 'Sessions' }));
  const dialog = screen.getByRole('dialog', { name: 'Sessions of bob@example.test' });
  expect(await within(dialog).findByText('Chrome on Linux')).toBeTruthy();
  expect(within(dialog).getByText(/192\.0\.2\.7/)).toBeTruthy();
  expect(within(dialog).getByText('Unknown device')).toBeTruthy();
  // The session this browser is using is named, and its End button says what it does.
  expect(within(dialog).getByText('This browser')).toBeTruthy();
  expect(within(dialog).getByText('Ending it signs you out here.')).toBeTruthy();
  expect(
    within(dialog).getByRole('button', { name: /\(this browser: signs you out\)$/ }),
  ).toBeTruthy();

  await user.click(within(dialog).getAllByRole('button', { name: /^End session/ })[0]!);
  expect(writes()).toEqual([
    { method: 'DELETE', url: '/api/admin/users/bob1/sessions/s1', body: undefined },
  ]);
  await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
  expect(writes()).toHaveLength(1);
  await user.click(within(dialog).getByRole('button', { name: 'Yes, end all 2' }));
  expect(writes().at(-1)).toEqual({
    method: 'DELETE',
    url: '/api/admin/users/bob1/sessions',
    body: undefined,
  });
});

it('resets a second factor after asking', async () => {
  const user = userEvent.setup();
  renderConsole();
  const card = await screen.findByRole('listitem', { name: 'bob@example.test' });
  await user.click(within(card).getByRole('button', { name: 'Reset two-factor' }));
  const dialog = screen.getByRole('dialog', { name: 'Reset two-factor for bob@example.test?' });
  await user.click(within(dialog).getByRole('button', { name: 'Reset two-factor' }));
  expect(writes()).toEqual([
    { method: 'DELETE', url: '/api/admin/users/bob1/two-factor', body: undefined },
  ]);
  await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

it("shows the server's refusal in the dialog and keeps it open", async () => {
  const user = userEvent.setup();
  refuse = true;
  renderConsole();
  const card = await screen.findByRole('listitem', { name: 'bob@example.test' });
  await user.click(within(card).getByRole('button', { name: 'Disable' }));
  const dialog = screen.getByRole('dialog', { name: 'Disable bob@example.test?' });
  await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
  expect(await within(dialog).findByText('Admin privileges required')).toBeTruthy();
  expect(screen.getByRole('dialog', { name: 'Disable bob@example.test?' })).toBeTruthy();
});
