// A thin progress bar in the app's colours (a native <progress>, styled: Chromium otherwise draws
// its own green bar whatever the theme).
export function Progress({ label, value }: { label: string; value: number }) {
  return (
    <progress
      aria-label={label}
      max={100}
      value={value}
      className="mt-1 block h-1.5 w-full appearance-none overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800 [&::-moz-progress-bar]:bg-indigo-600 [&::-webkit-progress-bar]:bg-slate-200 dark:[&::-webkit-progress-bar]:bg-slate-800 [&::-webkit-progress-value]:bg-indigo-600 dark:[&::-webkit-progress-value]:bg-indigo-400 [&::-webkit-progress-value]:transition-[width]"
    />
  );
}
