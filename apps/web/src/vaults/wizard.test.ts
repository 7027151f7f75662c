import { describe, expect, it } from 'vitest';
import { messages } from '@sealvault/protocol';
import {
  initialWizard,
  NAME_REQUIRED,
  progressPercent,
  stepError,
  withVaultType,
} from './wizard.ts';

describe('create-vault wizard gating', () => {
  it('step 1 needs a name that is not blank after trimming', () => {
    expect(stepError(1, { ...initialWizard, name: '   ' })).toBe(NAME_REQUIRED);
    expect(stepError(1, { ...initialWizard, name: ' Taxes ' })).toBeNull();
  });

  it('step 2 always passes', () => {
    expect(stepError(2, initialWizard)).toBeNull();
  });

  it('step 3 needs a provider', () => {
    expect(stepError(3, initialWizard)).toBe(messages.vaults.selectProvider);
    expect(stepError(3, { ...initialWizard, provider: 'server' })).toBeNull();
  });

  it('step 3 accepts only a provider that may be chosen here', () => {
    expect(stepError(3, { ...initialWizard, provider: 'googledrive' }, ['server'])).toBe(
      messages.vaults.selectProvider,
    );
    expect(
      stepError(3, { ...initialWizard, provider: 'dropbox' }, ['server', 'dropbox']),
    ).toBeNull();
  });

  it('offers only our server storage in step 3 today', () => {
    expect(stepError(3, { ...initialWizard, provider: 'local' })).toBe(
      messages.vaults.selectProvider,
    );
  });

  it('step 4 needs 8 characters and a matching confirmation', () => {
    expect(stepError(4, { ...initialWizard, password: 'short', confirm: 'short' })).toBe(
      'Password must be at least 8 characters',
    );
    expect(stepError(4, { ...initialWizard, password: 'longenough', confirm: 'longenougH' })).toBe(
      'Passwords do not match',
    );
    expect(
      stepError(4, { ...initialWizard, password: 'longenough', confirm: 'longenough' }),
    ).toBeNull();
  });

  it('clears the provider when the vault type changes, and only then', () => {
    const chosen = { ...initialWizard, provider: 'server' as const };
    expect(withVaultType(chosen, 'files').provider).toBe('server');
    expect(withVaultType(chosen, 'secrets').provider).toBeNull();
  });

  it('shows the progress as a percentage of 4 steps', () => {
    expect([1, 2, 3, 4].map(progressPercent)).toEqual([25, 50, 75, 100]);
  });
});
