// One TanStack Query client for the app (server state: plans, later vaults, files, profile).
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@sealvault/protocol';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        // A 4xx answer will not change on retry; network and 5xx errors get two more tries.
        retry: (failures, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
      },
    },
  });
}
