// The admin console's Users section (issue 33): a search by e-mail or name, the accounts a page
// at a time, and for each its plan and role (selects that apply at once) and the actions that ask
// first: sessions, reset of the second factor, disable or enable, delete. An admin's own row
// offers no demotion, disabling or deletion (the server refuses them too).
import { Search } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { userMessage } from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { FormMessage } from '../components/Field.tsx';
import { inputClass } from '../components/PasswordInput.tsx';
import { formatNumber } from '../i18n/format.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { Pager } from './Pager.tsx';
import { UserCard } from './UserCard.tsx';
import { ADMIN_PAGE_SIZE, useAdminUsers } from './useAdmin.ts';

export function UsersSection({ selfId }: { selfId: string }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const users = useAdminUsers(query, page);

  const search = (e: FormEvent) => {
    e.preventDefault();
    setQuery(draft.trim());
    setPage(1);
  };

  return (
    <div className="space-y-4">
      <form role="search" onSubmit={search} className="flex gap-2">
        <label htmlFor="admin-user-search" className="sr-only">
          {t('Search users by email or name')}
        </label>
        <input
          id="admin-user-search"
          type="search"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder={t('Search by email or name')}
          maxLength={200}
          className={`${inputClass} min-w-0 flex-1`}
        />
        <button type="submit" className={buttonClass('secondary', 'md', '!h-11 shrink-0')}>
          <Search aria-hidden="true" className="size-4" />
          <span className="max-sm:sr-only">{t('Search')}</span>
        </button>
      </form>

      {users.isPending ? (
        <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
          {t('Loading users...')}
        </p>
      ) : users.isError ? (
        <FormMessage kind="error">
          {t(userMessage(users.error, msg('Could not load the users')))}
        </FormMessage>
      ) : (
        <>
          <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
            {query
              ? users.data.total === 1
                ? t('1 user matching "{{query}}"', { query })
                : t('{{count}} users matching "{{query}}"', {
                    count: formatNumber(users.data.total),
                    query,
                  })
              : users.data.total === 1
                ? t('1 user')
                : t('{{count}} users', { count: formatNumber(users.data.total) })}
          </p>
          {users.data.users.length > 0 && (
            <ul aria-label={t('Users')} className="space-y-3">
              {users.data.users.map((u) => (
                <UserCard key={u.id} user={u} isSelf={u.id === selfId} />
              ))}
            </ul>
          )}
          <Pager
            page={page}
            total={users.data.total}
            perPage={ADMIN_PAGE_SIZE}
            onPage={setPage}
            label={t('Users pages')}
          />
        </>
      )}
    </div>
  );
}
