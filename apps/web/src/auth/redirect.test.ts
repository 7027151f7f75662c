import { describe, expect, it } from 'vitest';
import { authPathFor, safeNext } from './redirect.ts';

describe('safeNext', () => {
  it('keeps a same-origin path with its query', () => {
    expect(safeNext('/vault/xyz')).toBe('/vault/xyz');
    expect(safeNext('/dashboard?view=settings')).toBe('/dashboard?view=settings');
  });

  it('falls back to /dashboard when nothing is remembered', () => {
    expect(safeNext(null)).toBe('/dashboard');
    expect(safeNext('')).toBe('/dashboard');
  });

  it('refuses addresses that would leave the site', () => {
    expect(safeNext('https://evil.example/')).toBe('/dashboard');
    expect(safeNext('//evil.example/x')).toBe('/dashboard');
    expect(safeNext('/\\evil.example')).toBe('/dashboard');
    expect(safeNext('javascript:alert(1)')).toBe('/dashboard');
    expect(safeNext('/ok\n//evil')).toBe('/dashboard');
  });

  it('never returns to /auth itself', () => {
    expect(safeNext('/auth?mode=signup')).toBe('/dashboard');
  });
});

describe('authPathFor', () => {
  it('remembers the full location in next', () => {
    expect(authPathFor({ pathname: '/dashboard', search: '?view=settings', hash: '' })).toBe(
      '/auth?next=%2Fdashboard%3Fview%3Dsettings',
    );
  });

  it('leaves the default out', () => {
    expect(authPathFor({ pathname: '/dashboard', search: '', hash: '' })).toBe('/auth');
  });
});
