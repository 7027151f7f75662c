// The statistics strip (spec §1 marketing claims, verbatim).
const stats = [
  { value: '50,000+', label: 'users' },
  { value: '99.9%', label: 'uptime' },
  { value: '10M+', label: 'files' },
  { value: '24/7', label: 'support' },
  { value: 'AES-256', label: 'encryption' },
];

export function Stats() {
  return (
    <section aria-label="SealVault in numbers" className="bg-slate-900 dark:bg-slate-900/60">
      <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-x-6 gap-y-8 px-4 py-12 sm:py-14 sm:px-6 md:grid-cols-5">
        {stats.map(({ value, label }, i) => (
          <div
            key={label}
            className={`flex flex-col-reverse items-center text-center ${i === stats.length - 1 ? 'col-span-2 md:col-span-1' : ''}`}
          >
            <dt className="mt-1 text-sm font-medium tracking-wide text-slate-400 uppercase">
              {label}
            </dt>
            <dd className="text-3xl font-extrabold tracking-tight whitespace-nowrap text-white md:text-2xl lg:text-4xl">
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
