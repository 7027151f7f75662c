import { expect, test } from '@playwright/test';

test('the server answers health with the SQLite database and security headers', async ({
  request,
}) => {
  const res = await request.get('/api/health');
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: 'ok', database: 'sqlite' });
  expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
});
