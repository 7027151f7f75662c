// Whether the signed-in account has a password (an e-mail and password account) or signs in
// with Google only: the password panels and the delete confirmation depend on it.
import { useQuery } from '@tanstack/react-query';
import { authClient } from '../auth/authClient.ts';
import { authErrorMessage } from '../auth/authErrors.ts';
import { i18n } from '../i18n/i18n.ts';

export function useHasPassword() {
  return useQuery({
    queryKey: ['auth-accounts'],
    queryFn: async () => {
      const { data, error } = await authClient.listAccounts();
      if (error)
        throw new Error(authErrorMessage(error, i18n.t('Could not load your sign-in methods')));
      return data.some((a) => a.providerId === 'credential');
    },
  });
}
