import { describe, expect, it } from 'vitest';
import { messages } from '@sealvault/protocol';
import {
  initialWizard,
  NAME_REQUIRED,
  progressPercent,
  stepSchema,
  type StepRules,
  type WizardState,
} from './wizard.ts';

/** Each field's message when `step` may not move on, or {} when it may. */
function errorsOf(step: number, s: WizardState, rules?: StepRules): Record<string, string> {
  const result = stepSchema(step, rules).safeParse(s);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('create-vault wizard gating', () => {
  it('step 1 needs a name that is not blank after trimming', () => {
    expect(errorsOf(1, { ...initialWizard, name: '   ' })).toEqual({ name: NAME_REQUIRED });
    expect(errorsOf(1, { ...initialWizard, name: ' Taxes ' })).toEqual({});
  });

  it("step 1 refuses a name another of the account's vaults has, whatever its case (issue 25)", () => {
    const existing = [{ id: 'a', name: 'Browser docs' }];
    expect(errorsOf(1, { ...initialWizard, name: ' browser DOCS ' }, { existing })).toEqual({
      name: messages.vaults.duplicateName,
    });
    expect(errorsOf(1, { ...initialWizard, name: 'Browser docs 2' }, { existing })).toEqual({});
  });

  it('step 2 passes unless the plan does not allow the type', () => {
    expect(errorsOf(2, initialWizard)).toEqual({});
    expect(errorsOf(2, initialWizard, { unavailable: { files: 'One of each on Free' } })).toEqual({
      vaultType: 'One of each on Free',
    });
  });

  it('step 3 needs a provider', () => {
    expect(errorsOf(3, initialWizard)).toEqual({ provider: messages.vaults.selectProvider });
    expect(errorsOf(3, { ...initialWizard, provider: 'server' })).toEqual({});
  });

  it('step 3 accepts only a provider that may be chosen here', () => {
    expect(
      errorsOf(3, { ...initialWizard, provider: 'googledrive' }, { selectable: () => ['server'] }),
    ).toEqual({ provider: messages.vaults.selectProvider });
    expect(
      errorsOf(
        3,
        { ...initialWizard, provider: 'dropbox' },
        { selectable: () => ['server', 'dropbox'] },
      ),
    ).toEqual({});
  });

  it('offers only our server storage in step 3 today', () => {
    expect(errorsOf(3, { ...initialWizard, provider: 'local' })).toEqual({
      provider: messages.vaults.selectProvider,
    });
  });

  it('step 4 needs 8 characters and a matching confirmation, each on its own field', () => {
    expect(errorsOf(4, { ...initialWizard, password: 'short', confirm: 'short' })).toEqual({
      password: 'Password must be at least 8 characters',
    });
    expect(
      errorsOf(4, { ...initialWizard, password: 'longenough', confirm: 'longenougH' }),
    ).toEqual({ confirm: 'Passwords do not match' });
    expect(errorsOf(4, { ...initialWizard, password: 'short', confirm: '' })).toEqual({
      password: 'Password must be at least 8 characters',
      confirm: 'Passwords do not match',
    });
    expect(
      errorsOf(4, { ...initialWizard, password: 'longenough', confirm: 'longenough' }),
    ).toEqual({});
  });

  it('shows the progress as a percentage of 4 steps', () => {
    expect([1, 2, 3, 4].map(progressPercent)).toEqual([25, 50, 75, 100]);
  });
});
