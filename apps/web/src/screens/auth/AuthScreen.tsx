// /auth (spec §2): sign in / sign up. This is the page shell; the Accounts issue adds the forms.
// It already reads `mode` and `email` from the query string, as the landing page sends them.
import { ArrowLeft, Info } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import { ThemeToggle } from '../../theme/ThemeToggle.tsx';
import { readAuthParams } from './authParams.ts';

const copy = {
  signin: {
    title: 'Welcome back',
    subtitle: 'Sign in to your vault space',
    switchText: "Don't have an account? Sign up",
  },
  signup: {
    title: 'Create account',
    subtitle: 'Start securing your files today',
    switchText: 'Already have an account? Sign in',
  },
} as const;

export function AuthScreen() {
  const [search] = useSearchParams();
  const { mode, email } = readAuthParams(search);
  const text = copy[mode];
  const otherMode = new URLSearchParams({ mode: mode === 'signin' ? 'signup' : 'signin' });
  if (email) otherMode.set('email', email);

  return (
    <div className="flex min-h-dvh flex-col bg-slate-50 dark:bg-slate-950">
      <header className="mx-auto flex h-16 w-full max-w-6xl items-center justify-between px-4 sm:px-6">
        <Link
          to="/"
          aria-label="SealVault home"
          className="rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-500"
        >
          <Logo />
        </Link>
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-center justify-center px-4 py-10">
        <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
            {text.title}
          </h1>
          <p className="mt-2 text-slate-600 dark:text-slate-400">{text.subtitle}</p>
          <div
            role="note"
            className="mt-6 flex gap-3 rounded-xl border border-indigo-200 bg-indigo-50 p-4 text-sm text-indigo-900 dark:border-indigo-900 dark:bg-indigo-950/50 dark:text-indigo-200"
          >
            <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <p>
              Accounts arrive in the next release: signing in and signing up are not open yet.
              {email && (
                <>
                  {' '}
                  We will start your sign-up with <strong className="break-all">{email}</strong>.
                </>
              )}
            </p>
          </div>
          <p className="mt-6 text-center text-sm">
            <Link
              to={`/auth?${otherMode.toString()}`}
              className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
            >
              {text.switchText}
            </Link>
          </p>
        </div>
      </main>
      <p className="pb-8 text-center">
        <Link
          to="/"
          className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to home
        </Link>
      </p>
    </div>
  );
}
