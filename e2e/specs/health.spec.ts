import { expect, test } from '@playwright/test';

test('the server answers health with the SQLite database and security headers', async ({
  request,
}) => {
  const res = await request.get('/api/health');
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({
    status: 'ok',
    database: 'sqlite',
    version: expect.any(String),
    commit: expect.any(String),
  });
  expect(res.headers()['x-request-id']).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
  expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
});
